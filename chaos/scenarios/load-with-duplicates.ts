import { forEachConcurrently } from '../clients/concurrency';
import { GetProber } from '../clients/get-prober';
import { HttpLedger } from '../clients/http-ledger';
import { shuffle } from '../clients/shuffle';
import { submitUntilAccepted } from '../clients/submit';
import { newWorkItem } from '../clients/work-items';
import { waitForDrain } from '../evidence/drain';
import { auditNamespace } from '../evidence/namespace-audit';
import { tallyWork } from '../evidence/tally';
import type { ScenarioResult } from '../report/scenario-result';
import { tallyResult } from '../report/tally-result';
import { ChaosStack } from '../stack/chaos-stack';
import { clientsAbort, endScenario, ledgerClient, seconds, type ScenarioRun } from './scenario-context';

const SUBMIT_LANES = 64;
const GET_LANES = 4;
const POLL_PAUSE_MS = 20;

/**
 * As many creates as the machine takes, a share of them sent again with the same Idempotency-Key
 * (half at the same moment as the first, half later), while other clients poll. Exactly one
 * workflow per key must exist, all succeeded; no answer, GETs included, may be a 5xx.
 */
export async function runLoadWithDuplicates(run: ScenarioRun): Promise<ScenarioResult> {
  const { profile, log } = run;
  const stack = await ChaosStack.start({ label: 'load' });
  const abort = clientsAbort();
  let prober: GetProber | undefined;
  let clean = false;
  try {
    const ledger = new HttpLedger();
    const client = ledgerClient(stack, ledger);
    const items = Array.from({ length: profile.loadTasks }, () => newWorkItem('task'));
    const resent = items.slice(0, Math.round(items.length * profile.loadDuplicateShare));
    const resentTogether = new Set(resent.slice(0, Math.ceil(resent.length / 2)));
    const resentLater = resent.filter((item) => !resentTogether.has(item));
    prober = new GetProber(client, items, GET_LANES, POLL_PAUSE_MS);
    const started = Date.now();
    const deadline = started + profile.drainTimeoutMs;
    const order = shuffle([...items]);

    await forEachConcurrently(order, SUBMIT_LANES, async (item) => {
      const copies = resentTogether.has(item) ? 2 : 1;
      await Promise.all(Array.from({ length: copies }, () => submitUntilAccepted(client, item, deadline, abort.signal)));
    });
    await forEachConcurrently(resentLater, SUBMIT_LANES, (item) => submitUntilAccepted(client, item, deadline, abort.signal));
    const acceptedAt = Date.now();
    log(`${items.length + resent.length} creates answered in ${seconds(acceptedAt - started)}`);
    const audit = await stack.auditClient();
    const doneAt = await waitForDrain(audit, items, 'checked', profile.drainTimeoutMs);
    await prober.stop();

    const tally = tallyWork(items, await auditNamespace(audit, items.length), 'checked');
    const creates = items.length + resent.length;
    const result = tallyResult('load with 10 % duplicate keys', tally, ledger, {
      notes: [
        `${creates} creates (${resentTogether.size} keys sent twice at once, ${resentLater.length} re-sent later) from ${SUBMIT_LANES} clients: ${Math.round(creates / ((acceptedAt - started) / 1000))} creates/s`,
        doneAt === undefined ? 'NOT all done before the deadline' : `all ${items.length} succeeded ${seconds(doneAt - started)} after the first create`,
        `${prober.gets} GETs from ${GET_LANES} pollers during the run; ${ledger.responses} answers in all, ${ledger.retryable503} of them 503 + Retry-After to a create (retried under the same key)`,
      ],
    });
    clean = result.problems.length === 0;
    return result;
  } finally {
    await endScenario(stack, { abort, prober, clean, label: 'load', log });
  }
}
