import type { Client } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import type { temporal } from '@temporalio/proto';
import { decodeFirstPayload } from '../../src/api/platform/temporal/workflow-start-input';
import { markerIn } from '../clients/work-items';
import { localActivityTypeOf } from '../../test/support/local-activity-marker';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
type Payload = temporal.api.common.v1.IPayload;

/** What one workflow run did, read from its event history (the server's record, not the API's answers). */
export interface WorkflowRecord {
  workflowId: string;
  runId: string;
  type: string;
  /** The chaos-item key its input carries. */
  marker?: string;
  closed: boolean;
  /** ActivityTaskCompleted events and local-activity markers per activity type: exactly-once means 1 each. */
  completedActivities: Map<string, number>;
  /** What the workflow returned, when it completed. */
  result?: unknown;
  /**
   * When it completed, the start of the workflow task that completed it, in ms since the epoch:
   * the workflow's own clock as it decided what to return.
   */
  decidedAt?: number;
}

/** The run's input and result as stored: decoded (and decrypted) with the client's data converter once the events are read. */
interface StoredPayloads {
  input?: Payload[] | null;
  result?: Payload[] | null;
}

export async function readWorkflowRecord(client: Client, workflowId: string, runId?: string): Promise<WorkflowRecord> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  const record: WorkflowRecord = { workflowId, runId: runId ?? '', type: '', closed: false, completedActivities: new Map() };
  const activityTypeByScheduledId = new Map<string, string>();
  const stored: StoredPayloads = {};
  let workflowTaskStartedAt: number | undefined;
  for (const event of history.events ?? []) {
    readEvent(event, record, activityTypeByScheduledId, stored);
    if (event.workflowTaskStartedEventAttributes) workflowTaskStartedAt = tsToMs(event.eventTime);
    if (event.workflowExecutionCompletedEventAttributes) record.decidedAt = workflowTaskStartedAt;
  }
  record.marker = markerOfInput(await decodeFirstPayload(client, stored.input));
  if (stored.result) record.result = await decodeFirstPayload(client, stored.result);
  return record;
}

function readEvent(event: HistoryEvent, record: WorkflowRecord, activityTypeByScheduledId: Map<string, string>, stored: StoredPayloads): void {
  const started = event.workflowExecutionStartedEventAttributes;
  if (started) {
    record.type = started.workflowType?.name ?? '';
    record.runId ||= started.originalExecutionRunId ?? '';
    stored.input = started.input?.payloads;
  }
  const scheduled = event.activityTaskScheduledEventAttributes;
  if (scheduled) activityTypeByScheduledId.set(String(event.eventId), scheduled.activityType?.name ?? '?');
  const completed = event.activityTaskCompletedEventAttributes;
  const type = completed ? (activityTypeByScheduledId.get(String(completed.scheduledEventId)) ?? '?') : localActivityTypeOf(event);
  if (type) record.completedActivities.set(type, (record.completedActivities.get(type) ?? 0) + 1);
  if (event.workflowExecutionCompletedEventAttributes) {
    record.closed = true;
    stored.result = event.workflowExecutionCompletedEventAttributes.result?.payloads;
  }
  if (event.workflowExecutionFailedEventAttributes || event.workflowExecutionTerminatedEventAttributes) record.closed = true;
  if (event.workflowExecutionCanceledEventAttributes || event.workflowExecutionTimedOutEventAttributes) record.closed = true;
}

/** Task inputs carry the marker in their text, assessment inputs in their name. */
function markerOfInput(input: unknown): string | undefined {
  const value = input as { input?: { text?: unknown }; name?: unknown } | undefined;
  const text = typeof value?.input?.text === 'string' ? value.input.text : typeof value?.name === 'string' ? value.name : '';
  return markerIn(text);
}
