import { Worker } from '@temporalio/worker';
import { WORKFLOW_BUNDLE_OPTIONS } from '../../src/worker/workflow-bundle';
import { workerTracingOptions } from '../../src/worker/worker-tracing';

/** Replays a recorded history through the workflow code as production bundles it: with the same workflow interceptors (tracing included), preloaded as there. */
export function replayRecorded(file: string, history: unknown): Promise<void> {
  return Worker.runReplayHistory(
    {
      workflowsPath: WORKFLOW_BUNDLE_OPTIONS.workflowsPath,
      interceptors: { workflowModules: WORKFLOW_BUNDLE_OPTIONS.workflowInterceptorModules },
      bundlerOptions: { preloadModules: WORKFLOW_BUNDLE_OPTIONS.preloadModules },
      sinks: workerTracingOptions(undefined).sinks,
      replayName: file,
    },
    history,
  );
}
