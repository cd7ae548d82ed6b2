import * as fs from 'node:fs';
import { bundleWorkflowCode } from '@temporalio/worker';
import { bundlerLogger } from './bundler-logger';
import { WORKFLOW_BUNDLE_OPTIONS, WORKFLOW_BUNDLE_PATH } from './workflow-bundle';

/** Build step: bundle the workflow code once so workers start without webpack. */
async function main(): Promise<void> {
  const { code } = await bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger: bundlerLogger });
  fs.writeFileSync(WORKFLOW_BUNDLE_PATH, code);
  process.stderr.write(`[build] workflow bundle written to ${WORKFLOW_BUNDLE_PATH} (${(code.length / 1024).toFixed(0)} KiB)\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`[build] workflow bundling failed: ${String(error)}\n`);
  process.exit(1);
});
