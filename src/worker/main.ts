import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppConfig } from '../common/config/app-config';
import { runMain } from '../common/run-main';
import { WorkerModule } from './worker.module';
import { WorkerRunner } from './worker-runner';

runMain('worker', async () => {
  const app = await NestFactory.createApplicationContext(WorkerModule.register(new AppConfig()), { logger: ['error', 'warn'] });
  // Nest's shutdown hooks run WorkerRunner.onApplicationShutdown on SIGINT/SIGTERM, which drains the workers.
  app.enableShutdownHooks();
  await app.get(WorkerRunner).run();
});
