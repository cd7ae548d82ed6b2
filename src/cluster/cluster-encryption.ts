import * as fs from 'node:fs';
import { AppConfig, InvalidConfigError } from '../common/config/app-config';
import { productionDataHandling } from '../common/config/payload-encryption-check';
import { ensureLocalEncryptionKey } from '../embedded/local-encryption-key';

/**
 * The cluster configures payload encryption itself rather than refuse live keys: it is a whole
 * deployment with its data kept, so unless the shell configures keys its first run writes a key
 * file into the kept data directory (as `npm start` does), which every API instance, worker, the
 * codec endpoint and a shell with cluster.env read; PAYLOAD_ENCRYPTION=off changes nothing, since
 * configured keys are always used. The keys are read here, before any of Assay's processes starts,
 * so a shell setting that holds no usable key stops the launcher, naming it.
 */
export function ensureClusterEncryption(env: NodeJS.ProcessEnv): void {
  const config = new AppConfig(env);
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  ensureLocalEncryptionKey(config);
  if (productionDataHandling(config) !== 'encrypted') {
    throw new InvalidConfigError('Invalid configuration:\n  PAYLOAD_ENCRYPTION_KEYS: the cluster runs production only encrypted, and has no encryption key');
  }
}
