// Every patch id in use. When a patch is deprecated and when it is removed: docs/patch-policy.md.

/** Workflows started before this patch closed without publishing their outcome; replay keeps them so. */
export const PUBLISH_TASK_OUTCOME_PATCH = 'publish-task-outcome';

/**
 * Tasks started from this patch on first try to summarise in a local activity, then always
 * publish their outcome and emit their webhook event; older ones replay the activity on the task
 * queue.
 */
export const LOCAL_SUMMARY_PATCH = 'local-summary';

/**
 * Workflows that started before this patch never emitted events; replay keeps them so. The task
 * workflow emits after publishing its outcome, the assessment workflow once the review completes.
 */
export const EMIT_WEBHOOK_EVENTS_PATCH = 'emit-webhook-events';
