import { ASSESSMENT_ID_PREFIX, BATCH_ID_PREFIX, TASK_ID_PREFIX } from '../../contract';
import { prefixedIdKind, type IdKind } from './prefixed-ulid';

/** Every kind of resource a client creates, by the prefix of its id (the contract's, which workflows read too). */
export const ID_KINDS = {
  task: prefixedIdKind(TASK_ID_PREFIX),
  assessment: prefixedIdKind(ASSESSMENT_ID_PREFIX),
  batch: prefixedIdKind(BATCH_ID_PREFIX),
} as const satisfies Record<string, IdKind>;
