import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppConfig } from '../common/config/app-config';
import { createLogger } from '../common/logging/create-logger';
import { nestLogger } from '../common/logging/nest-logger';
import { runMain } from '../common/run-main';
import { WorkerModule } from './worker.module';
import { WorkerRunner } from './worker-runner';

runMain('worker', async () => {
  const config = new AppConfig();
  const app = await NestFactory.createApplicationContext(WorkerModule.register(config), { logger: nestLogger(createLogger(config.values.LOG_LEVEL, 'worker')) });
  // Nest's shutdown hooks run WorkerRunner.onApplicationShutdown on SIGINT/SIGTERM, which drains the workers.
  app.enableShutdownHooks();
  await app.get(WorkerRunner).run();
});
