import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { resolveTemporalCli } from '../../src/embedded/temporal-cli';
import { SANDBOX_NAMESPACE } from './test-temporal';

/** `temporal workflow <args>` with the real CLI against the test server's sandbox namespace, as an operator runs it. */
export async function temporalWorkflowCommand(address: string, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(resolveTemporalCli(), ['workflow', ...args, '--address', address, '--namespace', SANDBOX_NAMESPACE]);
  return stdout;
}
