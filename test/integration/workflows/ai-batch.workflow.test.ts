import { randomUUID } from 'node:crypto';
import { ExtractiveProvider } from '../../../activities/summarize/extractive-provider';
import { createActivities } from '../../../activities';
import {
  AI_BATCH_WORKFLOW_TYPE,
  BATCH_ADMISSION_PAGE,
  BATCH_ADMISSION_WINDOW,
  BATCH_PROGRESS_INTERVAL_MS,
  batchWorkflowId,
  type AiBatchMemo,
  type AiBatchWorkflowInput,
  type BatchActivities,
  type BatchCounts,
} from '../../../src/contract';
import { eventually } from '../../support/eventually';
import { recordHistoryIfAsked } from '../../support/record-history';
import { perFile } from '../../support/per-file';
import { startWorkflowTestbed } from '../../support/workflow-testbed';

// The batch workflow with its activities played by the test: admission a page at a time within
// the window, the end on the counts, and a cancel. The e2e suite (test/e2e/batches.test.ts) runs
// the same workflow with the real activities, tasks and database.

const testbed = perFile(() => startWorkflowTestbed('error'));

/** Tasks the test finishes when it wants; admission and counts as the real activities report them. */
class PlayedBatch {
  admitted = 0;
  finished = 0;
  counts = 0;
  withdrawn = false;
  canceled = false;
  /** From when the test says so, every admitted task finishes by the next count. */
  finishing = false;
  /** Unfinished tasks at each admission, before it. */
  readonly unfinishedAtAdmission: number[] = [];
  /** The activities in the order they ended. */
  readonly ended: string[] = [];
  /** Holds each admission until the test lets it go. */
  admissionGate: Promise<void> = Promise.resolve();

  constructor(private readonly total: number) {}

  readonly activities: BatchActivities = {
    admitBatchItems: async ({ fromIndex, limit }) => {
      this.unfinishedAtAdmission.push(this.admitted - this.finished);
      await this.admissionGate;
      this.admitted = Math.min(fromIndex + limit, this.total);
      this.ended.push('admit');
      return this.admitted;
    },
    countBatchTasks: async () => {
      this.counts += 1;
      if (this.finishing) this.finished = this.admitted;
      return { running: this.admitted - this.finished, succeeded: this.canceled ? 0 : this.finished, failed: this.canceled ? this.finished : 0 };
    },
    withdrawBatchItems: async () => {
      this.withdrawn = true;
      return this.total - this.admitted;
    },
    cancelBatchTasks: async () => {
      this.ended.push('cancel');
      this.canceled = true;
      this.finished = this.admitted;
      return this.admitted;
    },
  };
}

async function startBatch(played: PlayedBatch, total: number, pace?: AiBatchWorkflowInput['pace']) {
  const taskQueue = `wf-test-${randomUUID()}`;
  const worker = await testbed().createWorker({ taskQueue, activities: { ...createActivities({ summarizer: new ExtractiveProvider() }), ...played.activities } });
  const batchId = `batch_${randomUUID()}`;
  const input: AiBatchWorkflowInput = {
    batchId,
    organizationId: 'acme',
    taskType: 'summarize',
    model: { name: 'extractive', kind: 'extractive' },
    priority: 'low',
    createdAt: new Date().toISOString(),
    total,
    ...(pace ? { pace } : {}),
  };
  const memo: AiBatchMemo = { created_at: input.createdAt, request_hash: 'h', task_type: 'summarize', model: 'extractive', priority: 'low', total, admitted: 0 };
  const handle = await testbed().client.workflow.start(AI_BATCH_WORKFLOW_TYPE, { taskQueue, workflowId: batchWorkflowId('acme', batchId), args: [input], memo: { ...memo } });
  return { worker, handle };
}

describe('aiBatchWorkflow', () => {
  it('admits a page at a time while the window has room, and ends once every admitted task is final', async () => {
    const total = BATCH_ADMISSION_WINDOW + 2 * BATCH_ADMISSION_PAGE;
    const played = new PlayedBatch(total);
    const { worker, handle } = await startBatch(played, total);
    const counts = await worker.runUntil(async () => {
      await eventually(async () => played.admitted, (admitted) => admitted === BATCH_ADMISSION_WINDOW, 'the window to fill');
      // Full: nothing more is admitted until tasks finish.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(played.admitted).toBe(BATCH_ADMISSION_WINDOW);
      played.finishing = true;
      return handle.result() as Promise<BatchCounts>;
    });
    expect(counts).toEqual({ total, admitted: total, succeeded: total, failed: 0 });
    expect(Math.max(...played.unfinishedAtAdmission)).toBeLessThanOrEqual(BATCH_ADMISSION_WINDOW - BATCH_ADMISSION_PAGE);
    const { memo } = await handle.describe();
    expect(memo).toMatchObject({ admitted: total, outcome: { counts } });
    recordHistoryIfAsked(await handle.fetchHistory(), 'ai-batch-ended');
  }, 60_000);

  it('on a cancel withdraws the items not admitted, cancels the running tasks and ends when they have closed', async () => {
    const total = BATCH_ADMISSION_WINDOW + BATCH_ADMISSION_PAGE;
    const played = new PlayedBatch(total);
    const { worker, handle } = await startBatch(played, total);
    const counts = await worker.runUntil(async () => {
      await eventually(async () => played.admitted, (admitted) => admitted === BATCH_ADMISSION_WINDOW, 'the window to fill');
      await handle.cancel();
      return handle.result() as Promise<BatchCounts>;
    });
    expect(played).toMatchObject({ withdrawn: true, canceled: true });
    expect(counts).toEqual({ total, admitted: BATCH_ADMISSION_WINDOW, succeeded: 0, failed: BATCH_ADMISSION_WINDOW });
    const { memo } = await handle.describe();
    expect((memo as unknown as AiBatchMemo).canceled_at).toEqual(expect.any(String));
    recordHistoryIfAsked(await handle.fetchHistory(), 'ai-batch-canceled');
  }, 60_000);

  it('on a cancel during an admission waits for it, so the tasks it started are canceled and counted', async () => {
    const total = 2 * BATCH_ADMISSION_PAGE;
    const played = new PlayedBatch(total);
    let release = () => {};
    played.admissionGate = new Promise((resolve) => (release = resolve));
    const { worker, handle } = await startBatch(played, total);
    const counts = await worker.runUntil(async () => {
      await eventually(async () => played.unfinishedAtAdmission.length, (admissions) => admissions === 1, 'the first admission to start');
      await handle.cancel();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      release();
      return handle.result() as Promise<BatchCounts>;
    });
    expect(played.ended).toEqual(['admit', 'cancel']);
    expect(counts).toEqual({ total, admitted: BATCH_ADMISSION_PAGE, succeeded: 0, failed: BATCH_ADMISSION_PAGE });
  }, 60_000);

  it('admits a paced batch no faster than its pace: the burst at once, then the rate', async () => {
    const total = 200;
    const played = new PlayedBatch(total);
    played.finishing = true;
    const { worker, handle } = await startBatch(played, total, { perMinute: 1_200, burst: 10 });
    const admittedAfter = await worker.runUntil(async () => {
      await eventually(async () => played.admitted, (admitted) => admitted >= 10, 'the burst');
      const startedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const admitted = played.admitted;
      recordHistoryIfAsked(await handle.fetchHistory(), 'ai-batch-paced');
      await handle.terminate();
      return { admitted, seconds: (Date.now() - startedAt) / 1000 };
    });
    // 20 a second after the burst of 10; a second's worth of slack for the polling.
    expect(admittedAfter.admitted).toBeLessThanOrEqual(10 + 20 * (admittedAfter.seconds + 1));
    expect(admittedAfter.admitted).toBeGreaterThan(10);
    expect(admittedAfter.admitted).toBeLessThan(total);
  }, 60_000);

  it('counts a paced batch’s tasks once per progress interval while it admits each second', async () => {
    const total = 1_000;
    const played = new PlayedBatch(total);
    played.finishing = true;
    const { worker, handle } = await startBatch(played, total, { perMinute: 600, burst: 10 });
    const seen = await worker.runUntil(async () => {
      await eventually(async () => played.unfinishedAtAdmission.length, (admissions) => admissions >= 1, 'the first admission');
      const before = { admissions: played.unfinishedAtAdmission.length, counts: played.counts };
      await new Promise((resolve) => setTimeout(resolve, 5 * BATCH_PROGRESS_INTERVAL_MS));
      const after = { admissions: played.unfinishedAtAdmission.length, counts: played.counts };
      await handle.terminate();
      return { admissions: after.admissions - before.admissions, counts: after.counts - before.counts };
    });
    // An admission a second; a count every 3 s (one more at either edge of the window). A loaded
    // machine stretches each admission's second, so the bounds keep apart only what the two paces
    // do: 15 s hold 8 admissions even at one per 1.8 s, and 8 counts only if counting kept pace with them.
    expect(seen.admissions).toBeGreaterThanOrEqual(8);
    expect(seen.counts).toBeLessThanOrEqual(6);
  }, 60_000);
});
