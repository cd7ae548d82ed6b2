import type { Logger } from 'pino';
import type { KeyEnvironment } from '../keys/api-key';
import { Storage } from '../storage/storage';
import { AppConfig, InvalidConfigError } from './app-config';
import { payloadEncryptionVerdict, type ProductionDataHandling } from './payload-encryption-verdict';

/**
 * At the start of a process that serves `served`: refuses (InvalidConfigError, so exit 2 like any
 * bad setting) to serve production in plaintext, and otherwise warns, at every start, when it runs
 * without keys. The key store is read only without keys, and only by a process serving production.
 */
export async function checkPayloadEncryptionAtStart(config: AppConfig, served: readonly KeyEnvironment[], logger: Logger): Promise<void> {
  const keysConfigured = config.keyRing !== undefined;
  const production = !keysConfigured && served.includes('live') && (await hasActiveLiveKey(config));
  const verdict = payloadEncryptionVerdict({ keysConfigured, setting: config.values.PAYLOAD_ENCRYPTION, production });
  if (verdict.kind === 'refused') throw new InvalidConfigError(verdict.problem);
  if (verdict.kind === 'plaintext') logger.warn(verdict.warning);
}

/** What this process does with production data, were it handed some: the verdict with production passing through. */
export function productionDataHandling(config: AppConfig): ProductionDataHandling {
  return payloadEncryptionVerdict({ keysConfigured: config.keyRing !== undefined, setting: config.values.PAYLOAD_ENCRYPTION, production: true }).kind;
}

/**
 * At the point of use: whether this process must refuse to store or serve `environment`'s data.
 * The start's check sees only the live keys that exist then; one issued later is refused here.
 */
export function refusesPlaintext(config: AppConfig, environment: KeyEnvironment): boolean {
  return environment === 'live' && productionDataHandling(config) === 'refused';
}

/**
 * Before `assay keys issue --env live`: a process that started while only test keys existed runs
 * in plaintext (with its warning) and would serve the new key so, hence no live key without keys.
 */
export function checkLiveKeyIssue(config: AppConfig): void {
  const verdict = payloadEncryptionVerdict({ keysConfigured: config.keyRing !== undefined, setting: config.values.PAYLOAD_ENCRYPTION, production: true });
  if (verdict.kind === 'refused') throw new InvalidConfigError(verdict.problem);
}

async function hasActiveLiveKey(config: AppConfig): Promise<boolean> {
  const storage = await Storage.open(config);
  try {
    return await storage.keys.hasActiveKey('live', new Date().toISOString());
  } finally {
    await storage.close();
  }
}
