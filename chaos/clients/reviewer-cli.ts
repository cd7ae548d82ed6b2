import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ChaosStack } from '../stack/chaos-stack';

const run = promisify(execFile);

/** Runs `assay assessments <args>` against the stack, as a reviewer at a terminal would; throws on a non-zero exit. */
export async function reviewerCli(stack: ChaosStack, args: string[]): Promise<void> {
  await run(process.execPath, [stack.cliPath, 'assessments', ...args, '--json'], { env: stack.cliEnv() }).catch((error: { code?: number; stderr?: string }) => {
    throw new Error(`assay assessments ${args.join(' ')} exited with ${error.code}: ${error.stderr ?? ''}`);
  });
}
