import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from './app-config';

@Module({})
export class ConfigModule {
  /** The entrypoint (or a test) builds the config once and hands it in. */
  static register(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      global: true,
      providers: [{ provide: AppConfig, useValue: config }],
      exports: [AppConfig],
    };
  }
}
