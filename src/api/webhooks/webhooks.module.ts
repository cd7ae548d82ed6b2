import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../common/config/app-config';
import { openWebhookStore } from '../../common/storage/open-webhook-store';
import { systemResolver } from '../../common/webhooks/webhook-url-policy';
import { WebhookStore } from '../../common/storage/webhook-store';
import { WEBHOOK_RESOLVER, WebhooksService } from './webhooks.service';
import { WebhooksController } from './webhooks.controller';

@Module({
  controllers: [WebhooksController],
  providers: [
    { provide: WebhookStore, inject: [AppConfig], useFactory: (config: AppConfig) => openWebhookStore(config) },
    { provide: WEBHOOK_RESOLVER, useValue: systemResolver },
    WebhooksService,
  ],
})
export class WebhooksModule implements OnApplicationShutdown {
  constructor(@Inject(WebhookStore) private readonly store: WebhookStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
