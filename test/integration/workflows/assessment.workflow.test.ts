import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../../activities';
import { ExtractiveProvider } from '../../../activities/summarize/extractive-provider';
import { newAssessmentId } from '../../../src/common/ids/assessment-ids';
import {
  assessmentStateQuery,
  assessmentWorkflowId,
  claimAssessmentUpdate,
  completeAssessmentUpdate,
  releaseAssessmentUpdate,
  type AssessmentMemo,
  type AssessmentSla,
  type ReviewPipeline,
} from '../../../src/contract';
import { assessmentWorkflow } from '../../../workflows';
import { SINGLE_ZONE_GRAPH } from '../../support/graphs';
import { recordHistoryIfAsked } from '../../support/record-history';
import { eventually } from '../../support/eventually';
import { SANDBOX_NAMESPACE } from '../../support/test-temporal';
import { perFile } from '../../support/per-file';
import { startWorkflowTestbed } from '../../support/workflow-testbed';
import { repoRoot } from '../../../src/common/repo-root';

const EventType = temporal.api.enums.v1.EventType;
const HOUR = 60 * 60 * 1000;
const RELAXED_SLA: AssessmentSla = { claimWithinMs: HOUR, reviewWithinMs: HOUR };
// Set to write the history of the full-review test to test/replay/histories (see assessment.replay.test.ts).

const testbed = perFile(() => startWorkflowTestbed('warn'));

function createWorker(taskQueue: string): Promise<Worker> {
  return testbed().createWorker({
    taskQueue,
    activities: createActivities({ summarizer: new ExtractiveProvider() }),
    // A replacement worker picks up a cached workflow after this long instead of the default 10 s.
    stickyQueueScheduleToStartTimeout: '1 second',
  });
}

/** Runs `body` with a worker polling a fresh task queue, and stops the worker afterwards. */
async function withWorker<T>(body: (taskQueue: string) => Promise<T>): Promise<T> {
  const taskQueue = `assessment-test-${randomUUID()}`;
  const worker = await createWorker(taskQueue);
  return worker.runUntil(body(taskQueue));
}

async function startAssessment(taskQueue: string, sla: AssessmentSla = RELAXED_SLA, pipeline?: ReviewPipeline): Promise<WorkflowHandle<typeof assessmentWorkflow>> {
  const assessmentId = newAssessmentId();
  const memo: AssessmentMemo = { created_at: new Date().toISOString(), name: 'Shop', request_hash: 'test' };
  return testbed().client.workflow.start(assessmentWorkflow, {
    taskQueue,
    workflowId: assessmentWorkflowId('acme', assessmentId),
    args: [{ assessmentId, organizationId: 'acme', name: 'Shop', context: 'The web shop.', graph: SINGLE_ZONE_GRAPH, sla, ...(pipeline ? { pipeline } : {}) }],
    memo: { ...memo },
  });
}

async function memoOf(handle: WorkflowHandle): Promise<AssessmentMemo> {
  return (await handle.describe()).memo as unknown as AssessmentMemo;
}

function checked(handle: WorkflowHandle): Promise<AssessmentMemo> {
  return eventually(() => memoOf(handle), (memo) => memo.state?.checks_completed === true, 'the automated checks');
}

async function refusalOf(update: Promise<unknown>): Promise<{ type: string | null | undefined; message: string }> {
  const error = await update.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (!(error instanceof WorkflowUpdateFailedError) || !(error.cause instanceof ApplicationFailure)) {
    throw new Error(`expected a refused update, got ${String(error)}`);
  }
  return { type: error.cause.type, message: error.cause.message };
}

async function eventTypes(handle: WorkflowHandle): Promise<number[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).map((event) => Number(event.eventType));
}

describe('automated checks', () => {
  it('publish findings with severity and component ids in the memo, and the query answers the same state', () =>
    withWorker(async (taskQueue) => {
      const handle = await startAssessment(taskQueue);
      const memo = await checked(handle);
      expect(memo.state).toMatchObject({ status: 'submitted', checks_completed: true, escalations: [] });
      const summary = memo.findings?.map((finding) => [finding.check, finding.severity, finding.component_ids]);
      expect(summary).toEqual(
        expect.arrayContaining([
          ['missing_redundancy', 'high', ['lb']],
          ['missing_redundancy', 'high', ['db']],
          ['no_zone_redundancy', 'medium', ['app-1', 'app-2']],
        ]),
      );
      expect(await handle.query(assessmentStateQuery)).toEqual({ ...memo.state, findings: memo.findings });
    }));

  it('run as one activity per group of checks, each visible in the history', () =>
    withWorker(async (taskQueue) => {
      const handle = await startAssessment(taskQueue);
      await checked(handle);
      const history = await handle.fetchHistory();
      const activities = (history.events ?? []).flatMap((event) => event.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
      expect(activities.sort()).toEqual(['checkGraphIntegrity', 'checkReachability', 'checkSinglePointsOfFailure', 'checkZoneRedundancy']);
    }));
});

describe('reviewer updates', () => {
  it('refuse to complete or release an assessment nobody claimed', () =>
    withWorker(async (taskQueue) => {
      const handle = await startAssessment(taskQueue);
      await checked(handle);
      expect(await refusalOf(handle.executeUpdate(completeAssessmentUpdate, { args: [{ verdict: 'approved', notes: 'Fine.' }] }))).toEqual({
        type: 'NOT_CLAIMED',
        message: 'Nobody has claimed this assessment; claim it before you complete it',
      });
      expect((await refusalOf(handle.executeUpdate(releaseAssessmentUpdate, { args: [{}] }))).type).toBe('NOT_CLAIMED');
      expect((await memoOf(handle)).state?.status).toBe('submitted');
    }));

  it('refuse a second claim by another reviewer with a message naming who holds it, leaving no trace in history', () =>
    withWorker(async (taskQueue) => {
      const handle = await startAssessment(taskQueue);
      await checked(handle);
      const claimed = await handle.executeUpdate(claimAssessmentUpdate, { args: [{ reviewer: 'alice' }] });
      expect(claimed).toMatchObject({ status: 'under_review', claim: { reviewer: 'alice' } });
      const refused = await refusalOf(handle.executeUpdate(claimAssessmentUpdate, { args: [{ reviewer: 'bob' }] }));
      expect(refused).toEqual({
        type: 'ALREADY_CLAIMED',
        message: `Already claimed by alice since ${claimed.claim?.claimed_at}; they must release it first`,
      });
      const accepted = (await eventTypes(handle)).filter((type) => type === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED);
      expect(accepted).toHaveLength(1);
      expect((await memoOf(handle)).state?.claim?.reviewer).toBe('alice');
    }));

  it('release an assessment back to the queue, still under_review, where another reviewer can claim it', async () => {
    const handle = await withWorker(async (taskQueue) => {
      const started = await startAssessment(taskQueue);
      await checked(started);
      await started.executeUpdate(claimAssessmentUpdate, { args: [{ reviewer: 'alice' }] });
      expect(await started.executeUpdate(releaseAssessmentUpdate, { args: [{ reviewer: 'alice' }] })).toMatchObject({ status: 'under_review' });
      expect((await memoOf(started)).state).not.toHaveProperty('claim');
      const reclaimed = await started.executeUpdate(claimAssessmentUpdate, { args: [{ reviewer: 'bob' }] });
      expect(reclaimed).toMatchObject({ status: 'under_review', claim: { reviewer: 'bob' } });
      await started.executeUpdate(completeAssessmentUpdate, { args: [{ verdict: 'approved', notes: 'Fine after all.' }] });
      await started.result();
      return started;
    });
    recordHistoryIfAsked(await handle.fetchHistory(), 'assessment-release-reclaim-pipelines');
  });

  it('refuse a verdict outside approved, changes_requested and rejected', () =>
    withWorker(async (taskQueue) => {
      const handle = await startAssessment(taskQueue);
      await checked(handle);
      await handle.executeUpdate(claimAssessmentUpdate, { args: [{ reviewer: 'alice' }] });
      const refused = await refusalOf(handle.executeUpdate(completeAssessmentUpdate, { args: [{ verdict: 'maybe', notes: 'Hmm.' } as never] }));
      expect(refused).toEqual({ type: 'INVALID_REVIEW_REQUEST', message: 'verdict must be one of: approved, changes_requested, rejected' });
    }));

  it('complete with the verdict and close the workflow with the review', () =>
    withWorker(async (taskQueue) => {
      const handle = await startAssessment(taskQueue);
      await checked(handle);
      await handle.executeUpdate(claimAssessmentUpdate, { args: [{ reviewer: 'alice' }] });
      const completed = await handle.executeUpdate(completeAssessmentUpdate, {
        args: [{ verdict: 'changes_requested', notes: 'Add a second database in eu-1b.', reviewer: 'alice' }],
      });
      expect(completed.review).toEqual({
        verdict: 'changes_requested',
        notes: 'Add a second database in eu-1b.',
        reviewer: 'alice',
        completed_at: expect.any(String),
      });
      const result = await handle.result();
      expect(result).toMatchObject({ status: 'completed', review: completed.review });
      expect(result.findings?.length).toBeGreaterThan(0);
      expect((await memoOf(handle)).state).toEqual(completed);
      await expect(handle.executeUpdate(claimAssessmentUpdate, { args: [{ reviewer: 'bob' }] })).rejects.toThrow();
    }));
});

const TWO_STAGES: ReviewPipeline = {
  stages: [
    { name: 'network', group: 'network', claimWithinMs: HOUR, reviewWithinMs: HOUR, approvalsRequired: 1 },
    { name: 'security', group: 'security', claimWithinMs: HOUR, reviewWithinMs: HOUR, approvalsRequired: 2 },
  ],
  distinctApproversAcrossStages: false,
};

describe('a review pipeline', () => {
  it('takes two stages in order, refuses outsiders and a second approval by the same reviewer without a trace, and completes approved', async () => {
    const handle = await withWorker(async (taskQueue) => {
      const started = await startAssessment(taskQueue, RELAXED_SLA, TWO_STAGES);
      await checked(started);
      const claim = (reviewer: string, groups: string[]) => started.executeUpdate(claimAssessmentUpdate, { args: [{ reviewer, groups }] });
      const approve = (reviewer: string, groups: string[]) =>
        started.executeUpdate(completeAssessmentUpdate, { args: [{ verdict: 'approved', notes: `Fine by ${reviewer}.`, reviewer, groups }] });

      expect((await refusalOf(claim('sam', ['security']))).type).toBe('NOT_IN_STAGE_GROUP');
      await claim('nina', ['network']);
      expect(await approve('nina', ['network'])).toMatchObject({ status: 'under_review', stage: 'security' });
      await claim('sam', ['security']);
      expect((await approve('sam', ['security'])).stages?.[1]).toMatchObject({ state: 'active', reviews: [{ reviewer: 'sam', verdict: 'approved' }] });
      expect(await refusalOf(claim('sam', ['security']))).toEqual({
        type: 'FOUR_EYES',
        message: 'sam already approved stage security; four-eyes needs its second approval from a different reviewer',
      });
      await claim('sara', ['security']);
      const completed = await approve('sara', ['security']);
      expect(completed).toMatchObject({ status: 'completed', review: { verdict: 'approved', reviewer: 'sara' } });
      expect(completed.stages?.map((stage) => stage.state)).toEqual(['approved', 'approved']);
      await started.result();
      return started;
    });
    const history = await handle.fetchHistory();
    const accepted = (history.events ?? []).filter((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED);
    expect(accepted).toHaveLength(6);
    recordHistoryIfAsked(history, 'assessment-two-stage-four-eyes');
  });
});

describe('SLA', () => {
  it('records claim_overdue past the claim SLA, keeps waiting, and can still be claimed', () =>
    withWorker(async (taskQueue) => {
      const handle = await startAssessment(taskQueue, { claimWithinMs: 1_000, reviewWithinMs: HOUR });
      const memo = await eventually(() => memoOf(handle), (m) => (m.state?.escalations.length ?? 0) > 0, 'the claim escalation');
      expect(memo.state).toMatchObject({ status: 'submitted', escalations: [{ kind: 'claim_overdue', at: expect.any(String) }] });
      expect(Date.parse(memo.state!.escalations[0].at) - Date.parse(memo.created_at)).toBeGreaterThanOrEqual(1_000);
      expect((await handle.describe()).status.name).toBe('RUNNING');
      const claimed = await handle.executeUpdate(claimAssessmentUpdate, { args: [{ reviewer: 'alice' }] });
      expect(claimed).toMatchObject({ status: 'under_review', escalations: [{ kind: 'claim_overdue' }] });
    }));

  it('records review_overdue past the review SLA as a durable timer in the history, then completes', () =>
    withWorker(async (taskQueue) => {
      const handle = await startAssessment(taskQueue, { claimWithinMs: HOUR, reviewWithinMs: 1_500 });
      await checked(handle);
      await handle.executeUpdate(claimAssessmentUpdate, { args: [{ reviewer: 'alice' }] });
      const memo = await eventually(() => memoOf(handle), (m) => (m.state?.escalations.length ?? 0) > 0, 'the review escalation');
      expect(memo.state).toMatchObject({ status: 'under_review', escalations: [{ kind: 'review_overdue' }] });
      const completed = await handle.executeUpdate(completeAssessmentUpdate, { args: [{ verdict: 'approved', notes: 'Late but fine.' }] });
      expect(completed).toMatchObject({ status: 'completed', escalations: [{ kind: 'review_overdue' }] });
      const types = await eventTypes(handle);
      expect(types).toContain(EventType.EVENT_TYPE_TIMER_FIRED);
      expect(types).toContain(EventType.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED);
    }));
});

describe('worker crash while the assessment waits for review', () => {
  let child: ChildProcess | undefined;
  let bundleDir: string | undefined;

  afterEach(() => {
    if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (bundleDir) fs.rmSync(bundleDir, { recursive: true, force: true });
  });

  it('loses nothing: a worker killed mid-wait is replaced, the SLA timer still fires and the review completes', async () => {
    const taskQueue = `assessment-crash-${randomUUID()}`;
    const first = await createWorker(taskQueue);
    const handle = await first.runUntil(async () => {
      const started = await startAssessment(taskQueue, { claimWithinMs: HOUR, reviewWithinMs: 3_000 });
      await checked(started);
      return started;
    });

    bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-bundle-'));
    child = await startWorkerProcess(taskQueue, path.join(bundleDir, 'workflows.js'));
    const claimed = await handle.executeUpdate(claimAssessmentUpdate, { args: [{ reviewer: 'alice' }] });
    child.kill('SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));

    const replacement = await createWorker(taskQueue);
    await replacement.runUntil(async () => {
      const memo = await eventually(() => memoOf(handle), (m) => (m.state?.escalations.length ?? 0) > 0, 'the review escalation');
      expect(memo.state).toMatchObject({ status: 'under_review', claim: claimed.claim, escalations: [{ kind: 'review_overdue' }] });
      const completed = await handle.executeUpdate(completeAssessmentUpdate, { args: [{ verdict: 'rejected', notes: 'Single database.' }] });
      expect(completed.review).toMatchObject({ verdict: 'rejected', reviewer: 'alice' });
      expect((await handle.result()).findings).toEqual(memo.findings);
    });
  });

  /** A worker in its own process, so it can be killed outright (no graceful shutdown, no cache hand-off). */
  async function startWorkerProcess(taskQueue: string, bundlePath: string): Promise<ChildProcess> {
    fs.writeFileSync(bundlePath, testbed().workflowBundle.code);
    const script = `
      const { NativeConnection, Worker, Runtime, DefaultLogger } = require('@temporalio/worker');
      (async () => {
        Runtime.install({ logger: new DefaultLogger('ERROR') });
        const connection = await NativeConnection.connect({ address: process.env.ADDRESS });
        const worker = await Worker.create({
          connection, namespace: process.env.NAMESPACE, taskQueue: process.env.TASK_QUEUE,
          workflowBundle: { codePath: process.env.BUNDLE }, stickyQueueScheduleToStartTimeout: '1 second',
        });
        const running = worker.run();
        process.stdout.write('ready\\n');
        await running;
      })().catch((error) => { console.error(error); process.exit(1); });`;
    const worker = spawn(process.execPath, ['-e', script], {
      cwd: repoRoot(),
      env: { ...process.env, ADDRESS: testbed().server.address, NAMESPACE: SANDBOX_NAMESPACE, TASK_QUEUE: taskQueue, BUNDLE: bundlePath },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      worker.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      worker.once('exit', (code) => reject(new Error(`worker process exited with ${code} before it was ready`)));
    });
    return worker;
  }
});

describe('replay', () => {
  it('replays a full review (checks, claim, complete) from its own history without nondeterminism', async () => {
    const handle = await withWorker(async (taskQueue) => {
      const started = await startAssessment(taskQueue);
      await checked(started);
      await started.executeUpdate(claimAssessmentUpdate, { args: [{ reviewer: 'alice' }] });
      await started.executeUpdate(completeAssessmentUpdate, { args: [{ verdict: 'approved', notes: 'Redundant enough for now.' }] });
      await started.result();
      return started;
    });
    const history = await handle.fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: testbed().workflowBundle }, history, handle.workflowId);
    recordHistoryIfAsked(history, 'assessment-full-review-pipelines');
  });
});
