import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { resolveTemporalCli } from '../../src/embedded/temporal-cli';
import { SANDBOX_NAMESPACE } from './test-temporal';

/** The real `temporal` CLI with these arguments; its standard output. */
async function temporal(args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(resolveTemporalCli(), args);
  return stdout;
}

/** `temporal workflow <args>` with the real CLI against the test server's sandbox namespace, as an operator runs it. */
export function temporalWorkflowCommand(address: string, args: string[]): Promise<string> {
  return temporal(['workflow', ...args, '--address', address, '--namespace', SANDBOX_NAMESPACE]);
}

/** `temporal operator namespace describe` with the real CLI: the namespace's retention as Temporal reports it, in ms. */
export async function reportedRetentionMs(address: string, namespace: string): Promise<number> {
  const stdout = await temporal(['operator', 'namespace', 'describe', '--address', address, '--namespace', namespace, '--output', 'json']);
  const retention = (JSON.parse(stdout) as { config: { workflowExecutionRetentionTtl: string } }).config.workflowExecutionRetentionTtl;
  return Number.parseFloat(retention) * 1000;
}

/** `temporal task-queue config set` with the real CLI on the sandbox's activity queue: every organisation's activities dispatched at most `rps` a second (`default` lifts it). */
export async function setFairnessKeyRateLimit(address: string, taskQueue: string, rps: string): Promise<void> {
  await temporal([
    'task-queue', 'config', 'set',
    '--address', address,
    '--namespace', SANDBOX_NAMESPACE,
    '--task-queue', taskQueue,
    '--task-queue-type', 'activity',
    '--fairness-key-rps-limit-default', rps,
    '--fairness-key-rps-limit-reason', 'organisation cap',
  ]);
}
