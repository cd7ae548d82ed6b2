import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import type { AppConfig } from '../common/config/app-config';
import { generateEncryptionKeyEntry } from '../common/crypto/encryption-keys';

/**
 * Unless the operator configured keys, makes on the first start the key the worker, the API and the
 * CLI then read from the data directory (AppConfig.localKeyFile), owner-only. Losing it makes every
 * stored task unreadable, so an existing file is never rewritten.
 */
export function ensureLocalEncryptionKey(config: AppConfig): void {
  const values = config.values;
  if (values.PAYLOAD_ENCRYPTION_KEYS !== undefined || values.PAYLOAD_ENCRYPTION_KEYS_FILE !== undefined) return;
  if (fs.existsSync(config.localKeyFile)) return;
  const id = `local-${new Date().toISOString().slice(0, 10)}`;
  const header = '# Written by npm start. Newest key first; keep older keys below it to read what they encrypted.\n';
  fs.writeFileSync(config.localKeyFile, `${header}${generateEncryptionKeyEntry(id)}\n`, { mode: 0o600, flag: 'wx' });
}

/**
 * Unless CODEC_CREDENTIAL is set, makes on the first start the operator credential of the codec
 * endpoint, owner-only in the data directory (AppConfig.localCodecCredentialFile), and returns it.
 */
export function ensureLocalCodecCredential(config: AppConfig): string {
  if (!config.codecCredential) {
    fs.writeFileSync(config.localCodecCredentialFile, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  }
  return config.codecCredential as string;
}
