import { Worker } from '@temporalio/worker';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../../src/worker/workflow-bundle';
import { workerTracingOptions } from '../../src/worker/worker-tracing';

/** Replays a recorded history through the workflow code as production bundles it: with the same workflow interceptors (tracing included). */
export function replayRecorded(file: string, history: unknown): Promise<void> {
  return Worker.runReplayHistory(
    {
      workflowsPath: require.resolve('../../workflows'),
      interceptors: { workflowModules: WORKFLOW_INTERCEPTOR_MODULES },
      sinks: workerTracingOptions(undefined).sinks,
      replayName: file,
    },
    history,
  );
}
