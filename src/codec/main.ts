import { AppConfig, InvalidConfigError } from '../common/config/app-config';
import { EncryptedPayloadCodec } from '../common/crypto/encrypted-payload-codec';
import { createLogger, terminalOr } from '../common/logging/create-logger';
import { runMain } from '../common/run-main';
import { createCodecServer } from './codec-server';

/** The codec endpoint as its own process: `npm start` runs it beside the API; a cluster runs it where operators reach it. */
runMain('codec', async () => {
  const config = new AppConfig();
  const keyRing = config.keyRing;
  const credential = config.codecCredential;
  if (!keyRing) throw new InvalidConfigError('Invalid configuration:\n  PAYLOAD_ENCRYPTION_KEYS: the codec endpoint needs the encryption keys');
  if (!credential) throw new InvalidConfigError('Invalid configuration:\n  CODEC_CREDENTIAL: the codec endpoint needs an operator credential');
  const server = createCodecServer(new EncryptedPayloadCodec(keyRing), { credential, allowedOrigins: config.codecAllowedOrigins, trustProxy: config.values.TRUST_PROXY });
  const { CODEC_HOST: host, CODEC_PORT: port } = config.values;
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  createLogger('info', 'codec', terminalOr(2)).info(`listening on http://${host}:${port}/codec (browsers sign in at /codec/) for ${config.codecAllowedOrigins.join(', ')}`);
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
});
