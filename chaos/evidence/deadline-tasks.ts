import { deadlineError, type AiTaskOutcome } from '../../src/contract';
import { AssayApiError, type AssayClient, type Task } from '../../src/sdk';
import type { DeadlineTasks } from '../clients/deadline-tasks';
import type { WorkItem } from '../clients/work-items';
import { duplication, groupByMarker } from './tally';
import type { WorkflowRecord } from './workflow-record';

export interface DeadlineVerdict {
  /** "8 deadline tasks: 8 failed TIMED_OUT, 0 succeeded by their deadline". */
  note: string;
  /** One line per deadline task that was lost, duplicated, still pending or wrong; empty on a clean run. */
  problems: string[];
}

type Judgement = 'timed out' | 'in time' | { problem: string };

/** The namespace's runs of the deadline tasks, and the rest, which the scenario's tally holds against its other work. */
export function partitionRecords(tasks: DeadlineTasks, records: readonly WorkflowRecord[]): { deadline: WorkflowRecord[]; rest: WorkflowRecord[] } {
  const keys = new Set(tasks.items.map((item) => item.key));
  const isDeadlineTask = (record: WorkflowRecord) => record.marker !== undefined && keys.has(record.marker);
  return { deadline: records.filter(isDeadlineTask), rest: records.filter((record) => !isDeadlineTask(record)) };
}

/**
 * Holds each deadline task to its deadline once the work has drained. Its GET must show it final:
 * failed TIMED_OUT, which its history must show the workflow itself returned (its deadline's timer
 * or its clock, not the execution-timeout backstop), or succeeded, which its history must show the
 * workflow decided on a workflow task that started no later than the deadline. That task's
 * completion, the close the GET's `updated_at` shows, may come after the deadline by the task's
 * own duration (docs/api.md, "Priority and deadlines"). Like any work it must have been accepted,
 * be there (no 404) and have been done once.
 */
export async function checkDeadlineTasks(client: AssayClient, tasks: DeadlineTasks, records: readonly WorkflowRecord[]): Promise<DeadlineVerdict> {
  const recordsByMarker = groupByMarker(records);
  const problems: string[] = [];
  let timedOut = 0;
  let inTime = 0;
  for (const item of tasks.items) {
    const found = recordsByMarker.get(item.key) ?? [];
    const duplicate = duplication(item, found);
    if (duplicate) problems.push(`deadline task: ${duplicate}`);
    const judgement = await judge(client, item, found);
    if (judgement === 'timed out') timedOut++;
    else if (judgement === 'in time') inTime++;
    else problems.push(judgement.problem);
  }
  const note = `${tasks.items.length} deadline tasks: ${timedOut} failed TIMED_OUT, ${inTime} succeeded by their deadline`;
  return { note, problems };
}

async function judge(client: AssayClient, item: WorkItem, found: readonly WorkflowRecord[]): Promise<Judgement> {
  const label = `deadline task ${item.key} (deadline ${item.deadline})`;
  const [id] = item.ids;
  if (!item.accepted || id === undefined) return { problem: `lost ${label}: never accepted: ${item.error ?? 'unknown'}` };
  let task: Task;
  try {
    task = await client.getTask(id);
  } catch (error) {
    if (error instanceof AssayApiError && error.status === 404) return { problem: `lost ${label}: GET ${id} is 404` };
    return { problem: `${label}: GET ${id} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (task.deadline !== item.deadline) return { problem: `${label}: GET ${id} shows deadline ${task.deadline ?? 'none'}` };
  switch (task.status) {
    case 'queued':
    case 'running':
      return { problem: `${label} still ${task.status} after the drain timeout` };
    case 'succeeded':
      return succeededInTime(label, found, item.deadline as string);
    case 'failed':
      if (task.error.code !== 'TIMED_OUT') return { problem: `${label} failed ${task.error.code} (${task.error.message}), not TIMED_OUT` };
      return returnedDeadlineError(found, item.deadline as string) ? 'timed out' : { problem: `${label} is TIMED_OUT, but no run of its workflow returned the deadline's error` };
  }
}

function succeededInTime(label: string, found: readonly WorkflowRecord[], deadline: string): Judgement {
  const succeeded = found.find((record) => (record.result as AiTaskOutcome | undefined)?.status === 'succeeded');
  if (succeeded?.decidedAt === undefined) return { problem: `${label} succeeded, but no run of its workflow returned success` };
  if (succeeded.decidedAt <= Date.parse(deadline)) return 'in time';
  return { problem: `${label} succeeded on a workflow task that started at ${new Date(succeeded.decidedAt).toISOString()}, after its deadline` };
}

// What the workflow returns when its deadline's timer fires; a run closed by its execution timeout returns nothing.
function returnedDeadlineError(found: readonly WorkflowRecord[], deadline: string): boolean {
  const expected = deadlineError(deadline);
  return found.some((record) => {
    const outcome = record.result as AiTaskOutcome | undefined;
    return outcome?.status === 'failed' && outcome.error.code === expected.code && outcome.error.message === expected.message;
  });
}
