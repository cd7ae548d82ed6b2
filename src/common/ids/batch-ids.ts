import { derivedPrefixedId, newPrefixedId, prefixedIdMatcher, prefixedIdPattern } from './prefixed-ulid';
import { BATCH_ID_PREFIX, TASK_ID_PREFIX } from '../../contract';

export function newBatchId(): string {
  return newPrefixedId(BATCH_ID_PREFIX);
}

/** The batch id for (organisation, Idempotency-Key); see derivedPrefixedId. */
export function batchIdForIdempotencyKey(organizationId: string, idempotencyKey: string): string {
  return derivedPrefixedId(BATCH_ID_PREFIX, organizationId, idempotencyKey);
}

/**
 * The task id of a batch's item, derived from the batch and the item's key, so every retry of the
 * batch and every admission of the item names the same task. The NUL cannot occur in an
 * Idempotency-Key (a header value), so no single create's key derives the same id.
 */
export function taskIdForBatchItem(organizationId: string, batchId: string, itemKey: string): string {
  return derivedPrefixedId(TASK_ID_PREFIX, organizationId, `${batchId}\0${itemKey}`);
}

export const isBatchId: (value: string) => boolean = prefixedIdMatcher(BATCH_ID_PREFIX);
export const BATCH_ID_PATTERN = prefixedIdPattern(BATCH_ID_PREFIX);
