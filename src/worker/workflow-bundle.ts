import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WorkflowSource } from './create-workers';

/** Where `npm run build` writes the one prebuilt workflow bundle production loads. */
export const WORKFLOW_BUNDLE_PATH = path.resolve(__dirname, '../../workflow-bundle.js');

/**
 * Workflow interceptors bundled with the workflow code (a Worker ignores
 * interceptors.workflowModules when it is given a prebuilt bundle).
 */
export const WORKFLOW_INTERCEPTOR_MODULES = [
  require.resolve('../../workflows/interceptors/tracing'),
  require.resolve('../../workflows/interceptors/task-outcome-metric'),
];

export function prebuiltWorkflowBundle(): WorkflowSource {
  if (!fs.existsSync(WORKFLOW_BUNDLE_PATH)) {
    throw new Error(`No workflow bundle at ${WORKFLOW_BUNDLE_PATH}; run \`npm run build\` first`);
  }
  return { workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH } };
}
