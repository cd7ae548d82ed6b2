import { createHash } from 'node:crypto';
import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PublicRoute } from '../http/auth.guard';
import { buildOpenApiDocument, type OpenApiDocument } from './build-openapi-document';
import { documentInfo } from './document-info';
import { DOCS_PAGE_STYLE } from './docs-page/docs-page-style';
import { renderDocsPage } from './docs-page/render-docs-page';
import { API_OPERATIONS, API_TAGS } from './operations';

// The page has no script and one inline stylesheet: allow exactly that stylesheet and nothing else.
const DOCS_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(DOCS_PAGE_STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The OpenAPI document and its HTML page, built once at start from the operation descriptions. */
@Controller()
export class OpenApiController {
  private readonly document = buildOpenApiDocument(API_OPERATIONS, API_TAGS, documentInfo());
  private readonly page = renderDocsPage(this.document);

  @PublicRoute()
  @Get('openapi.json')
  openApiDocument(): OpenApiDocument {
    return this.document;
  }

  @PublicRoute()
  @Get('docs')
  docsPage(@Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', DOCS_CSP);
    return this.page;
  }
}
