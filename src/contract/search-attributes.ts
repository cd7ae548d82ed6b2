// Custom search attributes: what visibility indexes of each workflow. They are stored unencrypted,
// so they hold only identifiers and states, never customer content.

import { defineSearchAttributeKey } from '@temporalio/common';

/**
 * Custom search attributes behind the list endpoints. The embedded dev server registers them
 * at start; a real cluster needs `temporal operator search-attribute create` once
 * (docs/operations.md, Scaling out).
 */
export const ORGANIZATION_SEARCH_ATTRIBUTE = defineSearchAttributeKey('AssayOrganization', 'KEYWORD');
export const TASK_TYPE_SEARCH_ATTRIBUTE = defineSearchAttributeKey('AssayTaskType', 'KEYWORD');
export const STATUS_SEARCH_ATTRIBUTE = defineSearchAttributeKey('AssayStatus', 'KEYWORD');
/** On the tasks of a batch's items: its batch's tasks list and counts. */
export const BATCH_SEARCH_ATTRIBUTE = defineSearchAttributeKey('AssayBatchId', 'KEYWORD');
export const SEARCH_ATTRIBUTE_KEYS = [ORGANIZATION_SEARCH_ATTRIBUTE, TASK_TYPE_SEARCH_ATTRIBUTE, STATUS_SEARCH_ATTRIBUTE, BATCH_SEARCH_ATTRIBUTE];
