import { Module } from '@nestjs/common';
import { KeysModule } from '../keys/keys.module';
import { TemporalModule } from '../temporal/temporal.module';
import { HealthController } from './health.controller';
import { ReadinessProbe } from './readiness-probe';

@Module({ imports: [TemporalModule, KeysModule], controllers: [HealthController], providers: [ReadinessProbe] })
export class HealthModule {}
