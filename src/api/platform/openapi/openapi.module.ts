import { Module, type DynamicModule } from '@nestjs/common';
import type { DocumentWebhooks } from './build-openapi-document';
import { DOCUMENT_WEBHOOKS, OpenApiController } from './openapi.controller';

/** Serves the document of the routes the app's controllers carry, and of the webhooks the app assembling it names. */
@Module({})
export class OpenApiModule {
  static register(webhooks: DocumentWebhooks): DynamicModule {
    return { module: OpenApiModule, controllers: [OpenApiController], providers: [{ provide: DOCUMENT_WEBHOOKS, useValue: webhooks }] };
  }
}
