import { AssayApiError, TaskFailedError } from '../src/sdk';

/** Failures counted by cause, so a refusal the contract tells the client of is not read as a lost task. */
export type FailureCauses = Record<string, number>;

/**
 * `create 429` for a create refused, `wait: task failed TIMED_OUT` for a task that failed, `<stage>: <error name>`
 * otherwise; `task` is a create and its wait together, where either may have failed.
 */
export function failureCause(stage: 'create' | 'wait' | 'task', error: unknown): string {
  if (error instanceof AssayApiError) return `${stage} ${error.status}`;
  if (error instanceof TaskFailedError) return `${stage}: task failed ${error.code}`;
  return `${stage}: ${error instanceof Error ? error.name : 'unknown error'}`;
}

export function countFailure(causes: FailureCauses, cause: string): void {
  causes[cause] = (causes[cause] ?? 0) + 1;
}

export function totalFailures(causes: FailureCauses): number {
  return Object.values(causes).reduce((sum, count) => sum + count, 0);
}
