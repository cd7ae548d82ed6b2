/** The task queue every workflow and activity runs on unless TEMPORAL_TASK_QUEUE names another. */
export const DEFAULT_TASK_QUEUE = 'assay';
