import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import { TASK_ID_PREFIX } from '../../workflows/shared';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TASK_ID_SHAPE = /^task_[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

export function newTaskId(): string {
  return TASK_ID_PREFIX + ulid();
}

/**
 * The task id for (organisation, Idempotency-Key): derived, so every retry and every concurrent
 * duplicate names the same workflow and Temporal's id-uniqueness does the deduplication. It has a
 * ULID's shape (128 bits, Crockford base32) but its leading bits are a hash, not a timestamp.
 */
export function taskIdForIdempotencyKey(organizationId: string, idempotencyKey: string): string {
  const digest = createHash('sha256').update(`${organizationId}\0${idempotencyKey}`, 'utf8').digest();
  let value = BigInt(`0x${digest.subarray(0, 16).toString('hex')}`);
  let encoded = '';
  for (let i = 0; i < 26; i++) {
    encoded = CROCKFORD[Number(value & 31n)] + encoded;
    value >>= 5n;
  }
  return TASK_ID_PREFIX + encoded;
}

export function isTaskId(value: string): boolean {
  return TASK_ID_SHAPE.test(value);
}

/** The organisation is part of the workflow id, so another organisation's task id resolves to nothing. */
export function taskWorkflowId(organizationId: string, taskId: string): string {
  return `ai-task/${organizationId}/${taskId}`;
}
