import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { AppConfig } from '../common/config/app-config';
import { ConfigModule } from '../common/config/config.module';
import { AssessmentsModule } from './assessments/assessments.module';
import { BatchesModule } from './batches/batches.module';
import { ApiExceptionFilter } from './platform/http/api-exception.filter';
import { ApiRoutesModule } from './platform/http/api-routes';
import { AdmissionModule } from './platform/admission/admission.module';
import { RateLimitModule } from './platform/http/rate-limit.module';
import { HealthModule } from './platform/health/health.module';
import { KeysModule } from './platform/keys/keys.module';
import { MetricsModule } from './platform/metrics/metrics.module';
import { ModelsModule } from './models/models.module';
import { UsageModule } from './usage/usage.module';
import { OpenApiModule } from './platform/openapi/openapi.module';
import { WEBHOOKS_DOC } from './webhooks/webhook-events';
import { ConsoleModule } from './console/console.module';
import { ReviewModule } from './review/review.module';
import { TasksModule } from './tasks/tasks.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ConfigModule.register(config), ApiRoutesModule, MetricsModule, KeysModule, RateLimitModule, AdmissionModule, HealthModule, TasksModule, BatchesModule, ModelsModule, UsageModule, AssessmentsModule, OpenApiModule.register(WEBHOOKS_DOC), WebhooksModule, ReviewModule, ConsoleModule],
      providers: [
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
      ],
    };
  }
}
