import { quantile } from '../../bench/stats';
import { parseApiKey } from '../../src/common/keys/api-key';
import { TaskFailedError, type AssayClient, type Task } from '../../src/sdk';
import { WebhookReceiver } from '../../test/support/webhook-receiver';
import { sleep, waitUntil } from '../clients/concurrency';
import { HttpLedger } from '../clients/http-ledger';
import { describeAnswers, hostileServerErrors, sendHostileTraffic, type HostileTally } from '../clients/hostile-traffic';
import { createWithPreferWait } from '../clients/prefer-wait-create';
import { reviewerCli } from '../clients/reviewer-cli';
import { startEvery } from '../clients/steady-schedule';
import { submitUntilAccepted } from '../clients/submit';
import { newWorkItem, type WorkItem } from '../clients/work-items';
import { waitForDrain } from '../evidence/drain';
import { auditNamespace } from '../evidence/namespace-audit';
import { soakMinutes } from '../evidence/soak-minutes';
import { tallyWork } from '../evidence/tally';
import type { ScenarioResult } from '../report/scenario-result';
import { tallyResult } from '../report/tally-result';
import { judgeMeasures, soakMeasures } from '../report/soak-measures';
import { formatSoakTable } from '../report/soak-table';
import { ChaosStack } from '../stack/chaos-stack';
import { readSamples, sampleFromProc, type ProcessSample } from '../stack/process-sample';
import { clientsAbort, ledgerClient, seconds, type ProgressLog } from './scenario-context';

export interface SoakPlan {
  minutes: number;
}

export interface SoakReport {
  result: ScenarioResult;
  /** The minute-by-minute figures and each one's verdict. */
  table: string;
}

const MINUTE_MS = 60_000;
const SAMPLED_PROCESSES = ['api', 'worker-1', 'temporal'];

// The steady load: one create a second polled by the SDK, one every two seconds that waits on the
// create (Prefer: wait), a page of each list every five seconds, an assessment every half minute
// that a reviewer claims and approves with the CLI, and a webhook delivery for every outcome.
const PLAIN_CREATE_EVERY_MS = 1_000;
const WAITING_CREATE_EVERY_MS = 2_000;
const WAITING_CREATE_SECONDS = 20;
const LIST_EVERY_MS = 5_000;
const ASSESSMENT_EVERY_MS = 30_000;
const PROVIDER_DELAY = { minMs: 50, maxMs: 400 };

// The flood: clients that each hold a create open for the longest wait the API grants, on a model
// slower than most of that wait, again and again, early in the run so that the quarters compared
// for growth come after it. Its tasks have their own model and activity slots: what it can take
// from the steady tasks is the server's long polls, which is the question. Sized to reach both
// caps on held waits (PREFER_WAIT_MAX_PER_ORGANISATION 50, PREFER_WAIT_MAX_PER_INSTANCE 300): the
// soak's organisation sends 150, and six others 50 each.
const FLOOD = {
  model: 'slow',
  clients: 150,
  otherOrganisations: 6,
  clientsPerOtherOrganisation: 50,
  waitSeconds: 60,
  delay: { minMs: 40_000, maxMs: 55_000 },
  startShare: 0.15,
  durationShare: 0.05,
  minDurationMs: MINUTE_MS,
};

const SETTLE_TIMEOUT_MS = 5 * MINUTE_MS;
const POLL = { timeoutMs: SETTLE_TIMEOUT_MS, maxPolls: 400 };
const LIST_PAGE = { limit: 20 };
const EVENTS = ['ai_task.completed', 'assessment.reviewed'] as const;

type TaskKind = 'plain' | 'waiting' | 'flood';

// A flood create answered sooner than this, not final, was not held: a cap was reached.
const HELD_AT_LEAST_MS = 2_000;

interface TaskRun {
  item: WorkItem;
  kind: TaskKind;
  /** The soak's own organisation, or one of the flood's others (whose tasks send no webhooks). */
  ownOrganisation: boolean;
  createdAt: number;
  /** When the client saw it final. */
  finalAt?: number;
  status?: Task['status'];
  /** Whether the create itself answered with the task final (Prefer: wait). */
  answeredFinal?: boolean;
  /** When the create answered. */
  answeredAt?: number;
}

/**
 * `npm run test:chaos -- --soak`: the embedded stack under a steady mixed load for `minutes`,
 * each process's RSS, heap, open descriptors and event-loop delay sampled every minute, with a
 * flood of Prefer: wait creates early on. Fails if a figure grows from the second quarter to the
 * last beyond its allowance, if any work is lost, doubled or failed, if a webhook is missing, if
 * any answer is a 5xx, or if steady tasks created during the flood waited as long as its waits.
 */
export async function runSoak(plan: SoakPlan, log: ProgressLog): Promise<SoakReport> {
  const stack = await ChaosStack.start({
    label: 'soak',
    providerDelay: PROVIDER_DELAY,
    providerModels: [{ name: FLOOD.model, delay: FLOOD.delay, concurrency: (FLOOD.clients + FLOOD.otherOrganisations * FLOOD.clientsPerOtherOrganisation) * 2 }],
    env: { WEBHOOKS_ALLOW_INSECURE_SANDBOX: 'true' },
    sampleIntervalMs: MINUTE_MS,
  });
  const receiver = new WebhookReceiver();
  const abort = clientsAbort();
  let clean = false;
  try {
    await receiver.listen();
    const ledger = new HttpLedger();
    const client = ledgerClient(stack, ledger);
    await client.webhooks.create({ url: receiver.url(), events: [...EVENTS] });
    const audit = await stack.auditClient();
    const floodKeys = await Promise.all(Array.from({ length: FLOOD.otherOrganisations }, (_, index) => stack.issueKey(`flood-${index + 1}`)));
    const hostileKey = await stack.issueKey('hostile');
    let hostile: HostileTally | undefined;
    const runs: TaskRun[] = [];
    const assessments: WorkItem[] = [];
    const problems: string[] = [];
    const outsideSamples: ProcessSample[] = [];
    let lists = 0;

    const startedAt = Date.now();
    const durationMs = plan.minutes * MINUTE_MS;
    const endsAt = startedAt + durationMs;
    const floodStartsAt = startedAt + durationMs * FLOOD.startShare;
    const floodEndsAt = floodStartsAt + Math.max(FLOOD.minDurationMs, durationMs * FLOOD.durationShare);
    const settleBy = endsAt + SETTLE_TIMEOUT_MS;
    const signal = abort.signal;

    // A create answers the task (Prefer: wait) or only its id (the SDK's create, polled from there).
    const runTask = async (kind: TaskKind, create: (item: WorkItem) => Promise<Task | string | undefined>, apiKey = stack.apiKey): Promise<void> => {
      const run: TaskRun = { item: newWorkItem('task'), kind, ownOrganisation: apiKey === stack.apiKey, createdAt: Date.now() };
      runs.push(run);
      const created = await create(run.item);
      if (!created) return;
      run.answeredAt = Date.now();
      run.answeredFinal = typeof created !== 'string' && (created.status === 'succeeded' || created.status === 'failed');
      run.status = await finalStatus(run.ownOrganisation ? client : ledgerClient({ baseUrl: stack.baseUrl, apiKey }, ledger), created, signal);
      run.finalAt = Date.now();
    };
    const plainTask = () =>
      runTask('plain', async (item) => {
        await submitUntilAccepted(client, item, settleBy, signal);
        return item.accepted ? [...item.ids][0] : undefined;
      });
    const waitingTask = (kind: TaskKind, waitSeconds: number, model?: string, apiKey = stack.apiKey) =>
      runTask(kind, (item) => createWithPreferWait({ baseUrl: stack.baseUrl, apiKey }, ledger, item, { waitSeconds, model, deadline: settleBy, signal }), apiKey);
    const reviewedAssessment = async (): Promise<void> => {
      const item = newWorkItem('assessment');
      assessments.push(item);
      await submitUntilAccepted(client, item, settleBy, signal);
      if (!item.accepted) return;
      const id = [...item.ids][0];
      await waitForDrain(audit, [item], 'checked', SETTLE_TIMEOUT_MS);
      await reviewerCli(stack, ['claim', id]);
      await reviewerCli(stack, ['complete', id, '--verdict', 'approved', '--notes', 'Reviewed during the soak.']);
    };
    const floodClient = async (apiKey: string): Promise<void> => {
      await sleep(floodStartsAt - Date.now());
      while (Date.now() < floodEndsAt && !signal.aborted) await waitingTask('flood', FLOOD.waitSeconds, FLOOD.model, apiKey);
    };
    const floodClients = [
      ...Array.from({ length: FLOOD.clients }, () => floodClient(stack.apiKey)),
      ...floodKeys.flatMap((key) => Array.from({ length: FLOOD.clientsPerOtherOrganisation }, () => floodClient(key))),
    ];
    const sampleTemporal = async (): Promise<void> => {
      await sleep(MINUTE_MS / 2);
      let minute = 0;
      await startEvery(MINUTE_MS, endsAt, signal, async () => {
        minute++;
        const pid = stack.processIds().get('temporal');
        const sample = pid === undefined ? undefined : sampleFromProc('temporal', pid);
        if (sample) outsideSamples.push(sample);
        const final = runs.filter((run) => run.finalAt !== undefined).length;
        log(`minute ${minute}/${plan.minutes}: ${runs.length} tasks created, ${final} final, ${assessments.length} assessments, ${ledger.serverErrors} 5xx`);
      });
    };

    log(`${plan.minutes} minutes of steady load beside hostile callers; the Prefer: wait flood (${floodClients.length} clients, ${FLOOD.otherOrganisations + 1} organisations) from ${seconds(floodStartsAt - startedAt)} to ${seconds(floodEndsAt - startedAt)}`);
    await Promise.all([
      startEvery(PLAIN_CREATE_EVERY_MS, endsAt, signal, plainTask),
      startEvery(WAITING_CREATE_EVERY_MS, endsAt, signal, () => waitingTask('waiting', WAITING_CREATE_SECONDS)),
      startEvery(LIST_EVERY_MS, endsAt, signal, async () => {
        await client.listTasks(LIST_PAGE);
        await client.listAssessments(LIST_PAGE);
        lists++;
      }),
      startEvery(ASSESSMENT_EVERY_MS, endsAt, signal, () => reviewedAssessment().catch((error: unknown) => void problems.push(`review: ${String(error)}`))),
      ...floodClients,
      sampleTemporal(),
      sendHostileTraffic({ baseUrl: stack.baseUrl, brand: parseApiKey(stack.apiKey)!.brand, malformedKey: hostileKey }, endsAt, signal).then((tally) => {
        hostile = tally;
      }),
    ]);
    log(`load over after ${seconds(Date.now() - startedAt)}; settling`);

    const items = [...runs.map((run) => run.item), ...assessments];
    await waitForDrain(audit, items, 'completed', SETTLE_TIMEOUT_MS);
    const tally = tallyWork(items, await auditNamespace(audit, items.length, SETTLE_TIMEOUT_MS), 'completed');
    const expectedEvents = [
      ...runs.filter((run) => run.ownOrganisation && run.status === 'succeeded').map((run) => `evt_${[...run.item.ids][0]}.succeeded`),
      ...assessments.filter((item) => item.accepted).map((item) => `evt_${[...item.ids][0]}.reviewed.approved`),
    ];
    const missingEvents = await eventsMissing(receiver, expectedEvents);
    if (missingEvents.length > 0) problems.push(`${missingEvents.length} webhook events never arrived, e.g. ${missingEvents.slice(0, 3).join(', ')}`);

    const plainDuring = latencies(runs, 'plain', (run) => run.createdAt >= floodStartsAt && run.createdAt < floodEndsAt);
    if (plainDuring.length > 0 && Math.max(...plainDuring) >= FLOOD.waitSeconds * 1000) {
      problems.push(`a task created during the flood took ${seconds(Math.max(...plainDuring))}, as long as the flood's waits: the workers' polls were crowded out`);
    }

    const minutes = soakMinutes(startedAt, plan.minutes, MINUTE_MS, [...readSamples(stack.samplesFile), ...outsideSamples], runs.flatMap((run) => (run.finalAt === undefined ? [] : [run.finalAt])));
    const verdicts = judgeMeasures(soakMeasures(SAMPLED_PROCESSES, minutes), minutes);
    for (const { measure, verdict } of verdicts.filter(({ verdict }) => verdict?.grew)) {
      problems.push(`${measure.process} ${measure.label} grew: ${verdict?.secondQuarterMean.toFixed(1)} -> ${verdict?.lastQuarterMean.toFixed(1)} ${measure.unit}`);
    }

    const flood = runs.filter((run) => run.kind === 'flood');
    const notHeld = (own: boolean) => flood.filter((run) => run.ownOrganisation === own && !run.answeredFinal && run.answeredAt !== undefined && run.answeredAt - run.createdAt < HELD_AT_LEAST_MS).length;
    if (hostile) problems.push(...hostileServerErrors(hostile));
    const result = tallyResult(`soak, ${plan.minutes} min of mixed load`, tally, ledger, {
      notes: [
        `${count(runs, 'plain')} tasks polled by the SDK, ${count(runs, 'waiting')} created with Prefer: wait=${WAITING_CREATE_SECONDS}, ${assessments.length} assessments claimed and approved with the reviewer CLI, ${lists} pages of each list, ${receiver.received.length} webhook requests received`,
        `Prefer: wait flood: ${floodClients.length} clients of ${FLOOD.otherOrganisations + 1} organisations (${FLOOD.clients} of the soak's, ${FLOOD.clientsPerOtherOrganisation} of each other) holding creates (wait=${FLOOD.waitSeconds}) on a model answering in ${seconds(FLOOD.delay.minMs)}–${seconds(FLOOD.delay.maxMs)}: ${flood.length} creates, ${flood.filter((run) => run.answeredFinal).length} answered final by the create itself; not held (a cap reached): ${notHeld(true)} of the soak's organisation, ${notHeld(false)} of the others`,
        `hostile callers beside it all: 4 MiB bodies without a key (${describeAnswers(hostile?.withoutKey ?? {})}), random keys (${describeAnswers(hostile?.randomKeys ?? {})}), malformed creates (${describeAnswers(hostile?.malformed ?? {})})`,
        `steady tasks created to final, p50 / p99: before the flood ${phase(latencies(runs, 'plain', (run) => run.createdAt < floodStartsAt))}, during ${phase(plainDuring)}, after ${phase(latencies(runs, 'plain', (run) => run.createdAt >= floodEndsAt))}`,
        `samples: ${stack.samplesFile}`,
      ],
      problems,
    });
    clean = result.problems.length === 0 && result.serverErrors === 0;
    return { result, table: formatSoakTable(minutes, verdicts) };
  } finally {
    abort.abort();
    await receiver.close();
    await stack.stop({ keepFiles: true });
    log(`soak: logs, databases and samples kept in ${stack.dir}${clean ? '' : ' (the run was not clean)'}`);
  }
}

async function finalStatus(client: AssayClient, task: Task | string, signal: AbortSignal): Promise<Task['status'] | undefined> {
  try {
    return (await client.waitForTask(task, { poll: POLL, signal })).status;
  } catch (error) {
    return error instanceof TaskFailedError ? 'failed' : undefined;
  }
}

/** The events not received (by webhook-id) after waiting a while for the last deliveries. */
async function eventsMissing(receiver: WebhookReceiver, expected: readonly string[]): Promise<string[]> {
  const missing = () => {
    const received = new Set(receiver.received.map((request) => request.headers['webhook-id']));
    return expected.filter((id) => !received.has(id));
  };
  await waitUntil('webhook deliveries', () => missing().length === 0, SETTLE_TIMEOUT_MS, 1_000).catch(() => undefined);
  return missing();
}

function count(runs: readonly TaskRun[], kind: TaskKind): number {
  return runs.filter((run) => run.kind === kind).length;
}

function latencies(runs: readonly TaskRun[], kind: TaskKind, when: (run: TaskRun) => boolean): number[] {
  return runs.flatMap((run) => (run.kind === kind && run.finalAt !== undefined && when(run) ? [run.finalAt - run.createdAt] : []));
}

function phase(samples: readonly number[]): string {
  return samples.length === 0 ? '–' : `${seconds(quantile(samples, 0.5))} / ${seconds(quantile(samples, 0.99))} (${samples.length} tasks)`;
}
