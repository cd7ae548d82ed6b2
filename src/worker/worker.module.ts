import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '../common/config/app-config';
import { ConfigModule } from '../common/config/config.module';
import { WorkerRunner } from './worker-runner';

@Module({})
export class WorkerModule {
  static register(config: AppConfig): DynamicModule {
    return { module: WorkerModule, imports: [ConfigModule.register(config)], providers: [WorkerRunner] };
  }
}
