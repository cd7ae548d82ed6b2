import 'reflect-metadata';
import { AppConfig } from '../common/config/app-config';
import { checkPayloadEncryptionAtStart } from '../common/config/payload-encryption-check';
import { KEY_ENVIRONMENTS } from '../common/keys/api-key';
import { createLogger } from '../common/logging/create-logger';
import { runMain } from '../common/run-main';
import { describeTemporalConnections } from '../common/temporal/connection-options';
import { startTracing } from '../common/tracing/start-tracing';
import { createApiApp } from './create-api-app';

runMain('api', async () => {
  const config = new AppConfig();
  // The API serves both environments, so it holds production data as soon as a live key exists.
  await checkPayloadEncryptionAtStart(config, KEY_ENVIRONMENTS, createLogger(config.values.LOG_LEVEL, 'api'));
  const tracing = config.tracing && startTracing('assay-api', config.tracing);
  const app = await createApiApp(config, { tracing });
  await app.listen({ port: config.values.PORT, host: config.values.HOST });
  // Announced whatever LOG_LEVEL says: launchers and operators wait for this line.
  createLogger('info', 'api').info({ temporal: describeTemporalConnections(config.temporalConnections) }, `listening on http://${config.values.HOST}:${config.values.PORT}`);
});
