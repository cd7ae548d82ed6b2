import type { ComponentChild } from 'preact';
import type { Task, TaskProgress, TaskUsage } from '../../src/sdk';
import { formatCost, formatCount } from '../format';
import type { Column } from './resource-list';

/** "3 / 7 steps": how far a task that runs in steps (on a remote model) has got. */
export function describeProgress(progress: TaskProgress): string {
  return `${formatCount(progress.completed_steps)} / ${formatCount(progress.total_steps)} steps`;
}

/** "2 provider calls · 1,234 tokens in, 56 out · cost 0.0012"; characters where the provider reported no tokens (the built-in model). */
export function describeUsage(usage: TaskUsage): string {
  const parts = [`${formatCount(usage.provider_calls)} provider ${usage.provider_calls === 1 ? 'call' : 'calls'}`];
  if (usage.input_tokens !== undefined || usage.output_tokens !== undefined) {
    parts.push(`${formatCount(usage.input_tokens ?? 0)} tokens in, ${formatCount(usage.output_tokens ?? 0)} out`);
  } else {
    parts.push(`${formatCount(usage.input_characters)} characters in, ${formatCount(usage.output_characters)} out`);
  }
  if (usage.cost !== undefined) parts.push(`cost ${formatCost(usage.cost)}`);
  return parts.join(' · ');
}

/** What a finished task used, or "—" (still running, or from before usage was reported). */
function describeUsageOf(task: Task): string {
  const usage = task.status === 'succeeded' || task.status === 'failed' ? task.usage : undefined;
  return usage ? describeUsage(usage) : '—';
}

/** The status, with the steps done while the task runs. */
export function taskStatus(task: Task): ComponentChild {
  return (
    <>
      {task.status}
      {task.status === 'running' && task.progress && <div class="muted" data-testid="progress">{describeProgress(task.progress)}</div>}
    </>
  );
}

/** The task list's columns beyond id, status and creation time. */
export const TASK_COLUMNS: Column<Task>[] = [
  { heading: 'Model', cell: (task) => task.model ?? '—' },
  { heading: 'Usage', cell: (task) => describeUsageOf(task) },
];

/** A task's fields that read better as a sentence than as JSON. */
export const TASK_DETAIL_FIELDS: Record<string, (value: unknown) => ComponentChild> = {
  progress: (value) => describeProgress(value as TaskProgress),
  usage: (value) => describeUsage(value as TaskUsage),
};
