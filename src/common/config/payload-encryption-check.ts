import type { Logger } from 'pino';
import type { KeyEnvironment } from '../keys/api-key';
import type { ApiEncryptionReportStore } from '../storage/api-encryption-report-store';
import { Storage } from '../storage/storage';
import { AppConfig, InvalidConfigError } from './app-config';
import { KEY_SETTINGS, payloadEncryptionVerdict, type ProductionDataHandling } from './payload-encryption-verdict';

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
 * Before `assay keys issue --env live`: asks the deployment, whose API said on starting what it
 * does with production data, not the CLI's own environment, which may hold other settings or none.
 * Before any API has started, nobody can say, so the key waits for one.
 */
export async function checkLiveKeyIssue(reports: ApiEncryptionReportStore): Promise<void> {
  const report = await reports.latest();
  if (report !== undefined && report.productionData !== 'refused') return;
  const problem = report
    ? `the API that started last (at ${report.reportedAt}) has no encryption key: set ${KEY_SETTINGS} for the API and the workers, or PAYLOAD_ENCRYPTION=off to store production data in plaintext`
    : 'no API has started on this key store yet to say whether it has any: start the API, then issue the key';
  throw new InvalidConfigError(`Invalid configuration:\n  PAYLOAD_ENCRYPTION_KEYS: live API keys need payload encryption, and ${problem}`);
}

async function hasActiveLiveKey(config: AppConfig): Promise<boolean> {
  const storage = await Storage.open(config);
  try {
    return await storage.keys.hasActiveKey('live', new Date().toISOString());
  } finally {
    await storage.close();
  }
}
