import { createHash } from 'node:crypto';
import { Controller, Inject, Res, type OnModuleInit } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AppConfig } from '../../../common/config/app-config';
import { ApiRoute } from '../http/api-route';
import { ApiRoutes } from '../http/api-routes';
import { API_TAGS } from './api-tags';
import { buildOpenApiDocument, type DocumentWebhooks, type OpenApiDocument } from './build-openapi-document';
import { documentInfo } from './document-info';
import { DOCS_PAGE_STYLE } from './docs-page/docs-page-style';
import { renderDocsPage } from './docs-page/render-docs-page';
import { withOfferedModels } from './offered-models';
import { OPENAPI_ROUTES } from './openapi.routes';

/** The webhooks the document shows, given by the app that assembles the module (OpenApiModule.register). */
export const DOCUMENT_WEBHOOKS = Symbol('DOCUMENT_WEBHOOKS');

// The page has no script and one inline stylesheet: allow exactly that stylesheet and nothing else.
const DOCS_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(DOCS_PAGE_STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The OpenAPI document and its HTML page, built once at start from the routes the app serves. */
@Controller()
export class OpenApiController implements OnModuleInit {
  private document!: OpenApiDocument;
  private page!: string;

  constructor(
    private readonly routes: ApiRoutes,
    private readonly config: AppConfig,
    @Inject(DOCUMENT_WEBHOOKS) private readonly webhooks: DocumentWebhooks,
  ) {}

  onModuleInit(): void {
    this.document = withOfferedModels(buildOpenApiDocument(this.routes.operations, API_TAGS, documentInfo(), this.webhooks), this.config.models.names);
    this.page = renderDocsPage(this.document);
  }

  @ApiRoute(OPENAPI_ROUTES.document)
  openApiDocument(): OpenApiDocument {
    return this.document;
  }

  @ApiRoute(OPENAPI_ROUTES.docsPage)
  docsPage(@Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', DOCS_CSP);
    return this.page;
  }
}
