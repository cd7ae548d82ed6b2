import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { AppConfig } from '../common/config/app-config';
import { refusesPlaintext } from '../common/config/payload-encryption-check';
import type { KeyEnvironment } from '../common/keys/api-key';

const REFUSAL = 'This worker has no payload encryption keys, so it runs no production activity: what one returns, starts or delivers is production data';

/**
 * For the workers of an environment this process must not handle in plaintext (production without
 * keys, unless PAYLOAD_ENCRYPTION=off): an interceptor that fails every activity, local ones too,
 * before it runs, whatever live keys existed when the worker started. Retryable: the refusal is
 * this worker's configuration, not the task's, so a worker with keys (or this one restarted with
 * them) takes the next attempt; a task whose attempts run out first fails as after any defect.
 */
export function encryptionRequiredInterceptors(config: AppConfig, environment: KeyEnvironment): ActivityInterceptorsFactory[] {
  if (!refusesPlaintext(config, environment)) return [];
  return [() => ({ inbound: { execute: () => Promise.reject(ApplicationFailure.retryable(REFUSAL, 'ENCRYPTION_REQUIRED')) } })];
}
