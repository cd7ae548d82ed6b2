import { Global, Module } from '@nestjs/common';
import { ApiMetrics } from './api-metrics';
import { MetricsController } from './metrics.controller';

/** Global so any service can count into ApiMetrics without importing this module. */
@Global()
@Module({ providers: [ApiMetrics], controllers: [MetricsController], exports: [ApiMetrics] })
export class MetricsModule {}
