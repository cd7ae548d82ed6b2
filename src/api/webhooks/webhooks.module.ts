import { Module } from '@nestjs/common';
import { systemResolver } from '../../common/webhooks/webhook-url-policy';
import { StorageModule } from '../platform/storage/storage.module';
import { TemporalModule } from '../platform/temporal/temporal.module';
import { WEBHOOK_RESOLVER, WebhooksService } from './webhooks.service';
import { WebhooksController } from './webhooks.controller';

@Module({
  imports: [StorageModule, TemporalModule],
  controllers: [WebhooksController],
  providers: [
    { provide: WEBHOOK_RESOLVER, useValue: systemResolver },
    WebhooksService,
  ],
})
export class WebhooksModule {}
