// A workflow interceptor module for tests: every workflow's first workflow task is held open for
// as long as the worker's `holdFirstWorkflowTask` local activity takes, as on a loaded worker, so
// the commands that task issued (a timer, an activity) reach the server that much later.

import { proxyLocalActivities, type WorkflowInterceptorsFactory } from '@temporalio/workflow';

export interface HeldFirstWorkflowTaskActivities {
  holdFirstWorkflowTask(): Promise<void>;
}

const { holdFirstWorkflowTask } = proxyLocalActivities<HeldFirstWorkflowTaskActivities>({ startToCloseTimeout: '10 seconds' });

export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      async execute(input, next) {
        // The workflow runs first, up to its first wait, so its commands belong to the held task.
        const result = next(input);
        await holdFirstWorkflowTask();
        return result;
      },
    },
  ],
});
