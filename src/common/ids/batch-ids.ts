import { TASK_ID_PREFIX } from '../../contract';
import { ID_KINDS } from './id-kinds';
import { derivedPrefixedId } from './prefixed-ulid';

export const { idForIdempotencyKey: batchIdForIdempotencyKey, isId: isBatchId, pattern: BATCH_ID_PATTERN } = ID_KINDS.batch;

/**
 * The task id of a batch's item, derived from the batch and the item's key, so every retry of the
 * batch and every admission of the item names the same task. The NUL cannot occur in an
 * Idempotency-Key (a header value), so no single create's key derives the same id.
 */
export function taskIdForBatchItem(organizationId: string, batchId: string, itemKey: string): string {
  return derivedPrefixedId(TASK_ID_PREFIX, organizationId, `${batchId}\0${itemKey}`);
}
