import { AssayApiError, AssayNetworkError } from '../../src/sdk';
import { forEachConcurrently, sleep } from '../clients/concurrency';
import { HttpLedger } from '../clients/http-ledger';
import { reviewerCli } from '../clients/reviewer-cli';
import { submitUntilAccepted } from '../clients/submit';
import { newWorkItem, type WorkItem } from '../clients/work-items';
import { waitForDrain } from '../evidence/drain';
import { auditNamespace } from '../evidence/namespace-audit';
import { tallyWork } from '../evidence/tally';
import type { ScenarioResult } from '../report/scenario-result';
import { tallyResult } from '../report/tally-result';
import { ChaosStack } from '../stack/chaos-stack';
import { clientsAbort, ledgerClient, seconds, type ScenarioRun } from './scenario-context';

const DOWNTIME_MS = 1_000;
const READ_RETRY_MS = 250;

/**
 * Assessments whose checks ran wait for the architecture team (one already claimed); then every
 * process is killed with SIGKILL at once and started again on the same files. Each assessment
 * must come back exactly as it was, and the reviewer CLI must then carry it to completed.
 */
export async function runReviewRestart(run: ScenarioRun): Promise<ScenarioResult> {
  const { profile, log } = run;
  const stack = await ChaosStack.start({ label: 'review-restart' });
  const abort = clientsAbort();
  let clean = false;
  try {
    // Temporal is down on purpose here, so a read may meet the documented 503 + Retry-After.
    const ledger = new HttpLedger('creates-and-reads');
    const client = ledgerClient(stack, ledger);
    const items = Array.from({ length: profile.reviewAssessments }, () => newWorkItem('assessment'));
    const deadline = Date.now() + profile.drainTimeoutMs;
    await forEachConcurrently(items, 4, (item) => submitUntilAccepted(client, item, deadline, abort.signal));
    const audit = await stack.auditClient();
    await waitForDrain(audit, items, 'checked', profile.drainTimeoutMs);
    const [claimedFirst, ...waiting] = items.map(idOf);
    await reviewerCli(stack, ['claim', claimedFirst]);
    const before = await Promise.all(items.map(async (item) => JSON.stringify(await client.getAssessment(idOf(item)))));

    log('kill -9 the API, the worker and the Temporal server at once');
    await stack.killEverything();
    await sleep(DOWNTIME_MS);
    const restartedAt = Date.now();
    await stack.startTemporal();
    await Promise.all([stack.startWorker('worker-1'), stack.startApi()]);
    const after = await Promise.all(items.map(async (item) => JSON.stringify(await readOnceServing(() => client.getAssessment(idOf(item)), deadline))));
    const answeredAt = Date.now();
    const problems = items.flatMap((item, index) => (before[index] === after[index] ? [] : [`assessment ${idOf(item)} changed across the restart: ${before[index]} -> ${after[index]}`]));

    await forEachConcurrently(waiting, 4, (id) => reviewerCli(stack, ['claim', id]));
    await forEachConcurrently(items.map(idOf), 4, (id) => reviewerCli(stack, ['complete', id, '--verdict', 'approved', '--notes', 'Survived a restart.']));
    const drainedAt = await waitForDrain(audit, items, 'completed', profile.drainTimeoutMs);
    for (const item of items) {
      const final = await client.getAssessment(idOf(item));
      if (final.status !== 'completed' || final.review?.verdict !== 'approved') problems.push(`assessment ${idOf(item)} ended ${final.status}`);
    }

    const tally = tallyWork(items, await auditNamespace(audit, items.length), 'completed');
    const result = {
      ...tallyResult('review waiting, restart of everything', tally, ledger, {
        recoveryMs: drainedAt === undefined ? undefined : drainedAt - restartedAt,
        notes: [
          `${items.length} assessments with their checks done (1 claimed, ${waiting.length} waiting for a reviewer) when every process got SIGKILL`,
          `API answered with every assessment unchanged ${seconds(answeredAt - restartedAt)} after the restart; the reviewer CLI then claimed and completed them`,
        ],
        problems,
      }),
      // An assessment that changed across the restart, or did not end approved, counts as lost.
      lost: tally.lost + problems.length,
    };
    clean = result.problems.length === 0;
    return result;
  } finally {
    abort.abort();
    await stack.stop({ keepFiles: !clean });
    if (!clean) log(`review restart: logs and databases kept in ${stack.dir}`);
  }
}

/** A read retried while the restarted API cannot answer yet (connection refused, 503 + Retry-After). */
async function readOnceServing<T>(read: () => Promise<T>, deadline: number): Promise<T> {
  for (;;) {
    try {
      return await read();
    } catch (error) {
      const retryable = error instanceof AssayNetworkError || (error instanceof AssayApiError && error.status === 503);
      if (!retryable || Date.now() > deadline) throw error;
      await sleep(READ_RETRY_MS);
    }
  }
}

function idOf(item: WorkItem): string {
  return [...item.ids][0];
}
