import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { AppConfig } from '../common/config/app-config';
import { ConfigModule } from '../common/config/config.module';
import { AssessmentsModule } from './assessments/assessments.module';
import { BatchesModule } from './batches/batches.module';
import { ApiExceptionFilter } from './http/api-exception.filter';
import { ApiRoutesModule } from './http/api-routes';
import { AdmissionModule } from './admission/admission.module';
import { RateLimitModule } from './http/rate-limit.module';
import { HealthModule } from './health/health.module';
import { KeysModule } from './keys/keys.module';
import { MetricsModule } from './metrics/metrics.module';
import { ModelsModule } from './models/models.module';
import { UsageModule } from './usage/usage.module';
import { OpenApiModule } from './openapi/openapi.module';
import { ConsoleModule } from './console/console.module';
import { ReviewModule } from './review/review.module';
import { TasksModule } from './tasks/tasks.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ConfigModule.register(config), ApiRoutesModule, MetricsModule, KeysModule, RateLimitModule, AdmissionModule, HealthModule, TasksModule, BatchesModule, ModelsModule, UsageModule, AssessmentsModule, OpenApiModule, WebhooksModule, ReviewModule, ConsoleModule],
      providers: [
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
      ],
    };
  }
}
