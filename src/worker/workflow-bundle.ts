import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BundleOptions } from '@temporalio/worker';
import type { WorkflowSource } from './create-workers';

/** Where `npm run build` writes the one prebuilt workflow bundle production loads. */
export const WORKFLOW_BUNDLE_PATH = path.resolve(__dirname, '../../workflow-bundle.js');

const WORKFLOWS_PATH = require.resolve('../../workflows');

/**
 * Workflow interceptors bundled with the workflow code (a Worker ignores
 * interceptors.workflowModules when it is given a prebuilt bundle).
 */
const WORKFLOW_INTERCEPTOR_MODULES = [
  require.resolve('../../workflows/interceptors/tracing'),
  require.resolve('../../workflows/interceptors/task-outcome-metric'),
];

/**
 * How the workflow code is bundled, by the build and by the tests that run or replay it. The
 * workflows and their interceptors are preloaded: evaluated once per workflow thread and shared by
 * every run, where otherwise each run evaluates its own copy of each of the 32 modules of
 * workflows/ and the contract, half of them for workflow types other than its own
 * (docs/benchmarks.md). They keep no per-run state at module scope (OpenTelemetry's, which does,
 * is loaded per run by the tracing interceptor, and only for traced runs), and the SDK freezes
 * what is shared.
 */
export const WORKFLOW_BUNDLE_OPTIONS = {
  workflowsPath: WORKFLOWS_PATH,
  workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
  preloadModules: [WORKFLOWS_PATH, ...WORKFLOW_INTERCEPTOR_MODULES],
} satisfies Omit<BundleOptions, 'logger'>;

export function prebuiltWorkflowBundle(): WorkflowSource {
  if (!fs.existsSync(WORKFLOW_BUNDLE_PATH)) {
    throw new Error(`No workflow bundle at ${WORKFLOW_BUNDLE_PATH}; run \`npm run build\` first`);
  }
  return { workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH } };
}
