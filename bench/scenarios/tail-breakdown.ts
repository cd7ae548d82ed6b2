import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { BenchStack } from '../bench-stack';
import { taskWorkflowId } from '../../src/contract';
import { distribution, type Distribution } from '../stats';

/** Where the slowest tasks' time went, phase by phase, from their histories (the server's clock). */
export interface TailBreakdown {
  tasks: number;
  /** Workflow started → its first workflow task scheduled. */
  toFirstSchedule: Distribution;
  /** Workflow tasks scheduled → picked up by a worker, summed over the task's workflow tasks: waiting for a poller. */
  scheduleToStart: Distribution;
  /** Workflow tasks picked up → completed, summed: the worker running them (local activities included). */
  workflowTaskRun: Distribution;
  /** Everything else until the workflow closed: activities, timers. */
  rest: Distribution;
}

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** Reads the histories of the given tasks of one organisation and splits each one's run into phases. */
export async function tailBreakdown(stack: BenchStack, organizationId: string, taskIds: string[]): Promise<TailBreakdown> {
  const connection = await Connection.connect(stack.connection);
  try {
    const client = new Client({ connection, namespace: stack.namespace });
    const phases = await Promise.all(taskIds.map(async (taskId) => phasesOf((await client.workflow.getHandle(taskWorkflowId(organizationId, taskId)).fetchHistory()).events ?? [])));
    const of = (pick: (phase: Phases) => number) => distribution(phases.map(pick));
    return { tasks: phases.length, toFirstSchedule: of((p) => p.toFirstSchedule), scheduleToStart: of((p) => p.scheduleToStart), workflowTaskRun: of((p) => p.workflowTaskRun), rest: of((p) => p.rest) };
  } finally {
    await connection.close();
  }
}

interface Phases {
  toFirstSchedule: number;
  scheduleToStart: number;
  workflowTaskRun: number;
  rest: number;
}

function phasesOf(events: HistoryEvent[]): Phases {
  const at = (event: HistoryEvent) => Number(event.eventTime?.seconds ?? 0) * 1000 + Math.round((event.eventTime?.nanos ?? 0) / 1e6);
  const named = (event: HistoryEvent) => event.eventType;
  const { EVENT_TYPE_WORKFLOW_TASK_SCHEDULED: SCHEDULED, EVENT_TYPE_WORKFLOW_TASK_STARTED: STARTED, EVENT_TYPE_WORKFLOW_TASK_COMPLETED: COMPLETED } = temporal.api.enums.v1.EventType;
  const firstSchedule = events.find((event) => named(event) === SCHEDULED);
  let scheduleToStart = 0;
  let workflowTaskRun = 0;
  let last: HistoryEvent | undefined;
  for (const event of events) {
    if (last && named(last) === SCHEDULED && named(event) === STARTED) scheduleToStart += at(event) - at(last);
    if (last && named(last) === STARTED && named(event) === COMPLETED) workflowTaskRun += at(event) - at(last);
    last = event;
  }
  const total = events.length ? at(events[events.length - 1]) - at(events[0]) : 0;
  const toFirstSchedule = firstSchedule && events.length ? at(firstSchedule) - at(events[0]) : 0;
  return { toFirstSchedule, scheduleToStart, workflowTaskRun, rest: total - toFirstSchedule - scheduleToStart - workflowTaskRun };
}
