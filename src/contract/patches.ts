// Every patch id in use. How a patch comes in, is deprecated and leaves, and where each one stands:
// docs/patch-policy.md.

/**
 * Workflows started before this patch closed without publishing their outcome; replay keeps them so.
 * Policy and state: docs/patch-policy.md#where-each-patch-stands (publish-task-outcome).
 */
export const PUBLISH_TASK_OUTCOME_PATCH = 'publish-task-outcome';

/**
 * Tasks started from this patch on first try to summarise in a local activity, then always
 * publish their outcome and emit their webhook event; older ones replay the activity on the task
 * queue.
 * Policy and state: docs/patch-policy.md#where-each-patch-stands (local-summary).
 */
export const LOCAL_SUMMARY_PATCH = 'local-summary';

/**
 * Workflows that started before this patch never emitted events; replay keeps them so. The task
 * workflow emits after publishing its outcome, the assessment workflow once the review completes.
 * Policy and state: docs/patch-policy.md#where-each-patch-stands (emit-webhook-events).
 */
export const EMIT_WEBHOOK_EVENTS_PATCH = 'emit-webhook-events';

/**
 * Events emitted from this patch on take their id from the resource and its outcome instead of a
 * random one, so every run that reaches the same outcome (an operator's reset runs the task
 * again) names the same event, whose workflow id Temporal lets start only once.
 * Policy and state: docs/patch-policy.md#where-each-patch-stands (outcome-event-ids).
 */
export const OUTCOME_EVENT_IDS_PATCH = 'outcome-event-ids';

/**
 * Tasks started from this patch on record their usage (a local activity) before they publish
 * their outcome, which then carries it; older ones replay without the call.
 * Policy and state: docs/patch-policy.md#where-each-patch-stands (record-usage).
 */
export const RECORD_USAGE_PATCH = 'record-usage';

/**
 * Tasks that record their usage from this patch on look up their completion event's subscribers
 * in the same local activity; older ones replay the two apart.
 * Policy and state: docs/patch-policy.md#where-each-patch-stands (usage-with-subscribers).
 */
export const USAGE_WITH_SUBSCRIBERS_PATCH = 'usage-with-subscribers';

/**
 * Tasks on the built-in model without a deadline, from this patch on, summarise and record their
 * usage in one local activity; older ones replay the summary and the record apart.
 * Policy and state: docs/patch-policy.md#where-each-patch-stands (extractive-task-in-one).
 */
export const EXTRACTIVE_TASK_IN_ONE_PATCH = 'extractive-task-in-one';

/**
 * Deadline tasks from this patch on fail TIMED_OUT when their work ends after the deadline by the
 * workflow's clock, before the timer fired; older ones replay as succeeded.
 * Policy and state: docs/patch-policy.md#where-each-patch-stands (deadline-at-decision).
 */
export const DEADLINE_AT_DECISION_PATCH = 'deadline-at-decision';

/**
 * Paced batches started from this patch on count their tasks once per progress interval while
 * they admit, instead of before every admission; older ones replay a count each second.
 * Policy and state: docs/patch-policy.md#where-each-patch-stands (paced-batch-counts).
 */
export const PACED_BATCH_COUNTS_PATCH = 'paced-batch-counts';

/**
 * Assessments started from this patch on are reviewed through their pipeline's stages (groups,
 * four-eyes) and a release keeps them under_review; older ones replay as one stage whose release
 * moves them back to submitted.
 * Policy and state: docs/patch-policy.md#where-each-patch-stands (review-pipelines).
 */
export const REVIEW_PIPELINES_PATCH = 'review-pipelines';

/**
 * Tasks on a remote model started from this patch on plan with the smallest context window their
 * worker learned for the model (a local activity before the plan); older ones replay planning
 * with the declared window.
 * Policy and state: docs/patch-policy.md#where-each-patch-stands (learned-context-window).
 */
export const LEARNED_CONTEXT_WINDOW_PATCH = 'learned-context-window';
