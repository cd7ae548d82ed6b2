import { Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy, type ConnectionLike, type ScheduleOptions } from '@temporalio/client';
import type { AppConfig } from '../common/config/app-config';
import { assayDataConverter } from '../common/temporal/data-converter';
import { OPERATOR_CLOSE_SWEEP_SCHEDULE_ID, OPERATOR_CLOSE_SWEEP_WORKFLOW_TYPE, type OperatorCloseSweepInput } from '../contract';

/** How long visibility may take to show a close; Elasticsearch refreshes within about a second. */
const VISIBILITY_LAG_MS = 60_000;

/**
 * Makes the namespace's operator-close sweep schedule exist as this worker's configuration says
 * (created once, updated when the interval or task queue changed). The server starts each sweep on
 * time even while no worker runs; SKIP lets a sweep that waited cover the ones due meanwhile.
 */
export async function ensureOperatorCloseSweep(connection: ConnectionLike, namespace: string, config: AppConfig): Promise<void> {
  const client = new Client({ connection, namespace, dataConverter: assayDataConverter(config) });
  const every = config.values.WEBHOOK_SWEEP_INTERVAL;
  const input: OperatorCloseSweepInput = { lookbackMs: every + VISIBILITY_LAG_MS };
  const options = {
    scheduleId: OPERATOR_CLOSE_SWEEP_SCHEDULE_ID,
    spec: { intervals: [{ every }] },
    action: {
      type: 'startWorkflow',
      workflowType: OPERATOR_CLOSE_SWEEP_WORKFLOW_TYPE,
      workflowId: 'operator-close-sweep',
      taskQueue: config.values.TEMPORAL_TASK_QUEUE,
      args: [input],
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP },
  } satisfies ScheduleOptions;
  try {
    await client.schedule.create(options);
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule.getHandle(OPERATOR_CLOSE_SWEEP_SCHEDULE_ID).update((current) => ({ ...current, spec: options.spec, action: options.action, policies: { ...current.policies, ...options.policies } }));
  }
}
