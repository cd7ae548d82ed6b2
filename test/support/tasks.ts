import type { CreateTaskRequest } from '../../src/sdk';

/** A create request for tests that need a task, not a particular summary: two short sentences. */
export const SUMMARIZE_TASK: CreateTaskRequest = { task_type: 'summarize', input: { text: 'The council approved the plan. It adds three bus lines.' } };
