import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { WorkerRunner } from './worker-runner';

@Module({})
export class WorkerModule {
  static register(config: AppConfig): DynamicModule {
    return { module: WorkerModule, imports: [ConfigModule.register(config)], providers: [WorkerRunner] };
  }
}
