import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppConfig } from '../common/config/app-config';
import { checkPayloadEncryptionAtStart } from '../common/config/payload-encryption-check';
import { createLogger } from '../common/logging/create-logger';
import { nestLogger } from '../common/logging/nest-logger';
import { runMain } from '../common/run-main';
import { WorkerModule } from './worker.module';
import { WorkerRunner } from './worker-runner';

runMain('worker', async () => {
  const config = new AppConfig();
  const logger = createLogger(config.values.LOG_LEVEL, 'worker');
  await checkPayloadEncryptionAtStart(config, config.values.WORKER_ENVIRONMENTS, logger);
  const app = await NestFactory.createApplicationContext(WorkerModule.register(config), { logger: nestLogger(logger) });
  // Nest's shutdown hooks run WorkerRunner.onApplicationShutdown on SIGINT/SIGTERM, which drains the workers.
  app.enableShutdownHooks();
  await app.get(WorkerRunner).run();
});
