import { forEachConcurrently, sleep, waitUntil } from '../clients/concurrency';
import { submitDeadlineTasks } from '../clients/deadline-tasks';
import { GetProber } from '../clients/get-prober';
import { HttpLedger } from '../clients/http-ledger';
import { reviewAll } from '../clients/reviewer';
import { submitUntilAccepted } from '../clients/submit';
import { shuffle } from '../clients/shuffle';
import { newWorkItem } from '../clients/work-items';
import { checkDeadlineTasks, partitionRecords } from '../evidence/deadline-tasks';
import { waitForDrain } from '../evidence/drain';
import { auditNamespace } from '../evidence/namespace-audit';
import { tallyWork } from '../evidence/tally';
import type { ScenarioResult } from '../report/scenario-result';
import { tallyResult } from '../report/tally-result';
import { ChaosStack, type ChaosStackOptions } from '../stack/chaos-stack';
import { clientsAbort, endScenario, ledgerClient, seconds, type ProgressLog, type ScenarioRun, type ScenarioStack } from './scenario-context';

const SUBMIT_LANES = 16;
const FAULT_TRIGGER_TIMEOUT_MS = 60_000;
// Clients polling while the fault strikes; the load scenario is where polling is heavy.
const POLLERS = 2;
const POLL_PAUSE_MS = 200;

export interface FaultOutcome {
  /** Recovery is measured from here: the restart, or the kill of a process that stays dead. */
  recoveryFrom: number;
  /** What happened at recoveryFrom, for the notes: "restart" or "kill". */
  recoveryEvent: 'restart' | 'kill';
  notes: string[];
}

/** A crash scenario on any stack: the chaos suite's dev-server stack, or the production topology (test/cluster). */
export interface CrashLoadSpec<S extends ScenarioStack> {
  name: string;
  tasks: number;
  assessments: number;
  /** True when the fault takes Temporal away, which makes 503 + Retry-After the API's documented answer to reads too. */
  temporalOutage: boolean;
  /** Breaks the stack mid-load and brings it back (or not). */
  fault(stack: S, log: ProgressLog): Promise<FaultOutcome>;
}

export interface CrashScenarioSpec extends CrashLoadSpec<ChaosStack> {
  stack: ChaosStackOptions;
}

/** A crash scenario of the chaos suite, on a stack of its own. */
export async function runCrashScenario(spec: CrashScenarioSpec, run: ScenarioRun): Promise<ScenarioResult> {
  return runCrashLoad(await ChaosStack.start(spec.stack), spec, run);
}

/**
 * The shape every crash scenario shares: clients submit work at a steady rate through the SDK
 * (retrying with the same Idempotency-Key) and poll it; a third of the way in, with summaries in
 * flight, the fault strikes; then every accepted item must get done exactly once, which the
 * server's own histories must show. Just before the fault a few deadline tasks go in too, whose
 * deadline passes while it is in effect: each must end failed TIMED_OUT (or have succeeded in
 * time), held apart from the work's tally. The stack is stopped at the end (its files kept on a failure).
 */
export async function runCrashLoad<S extends ScenarioStack>(stack: S, spec: CrashLoadSpec<S>, run: ScenarioRun): Promise<ScenarioResult> {
  const { profile, log } = run;
  const abort = clientsAbort();
  let prober: GetProber | undefined;
  let clean = false;
  try {
    const ledger = new HttpLedger(spec.temporalOutage ? 'creates-and-reads' : 'creates');
    const client = ledgerClient(stack, ledger);
    const items = shuffle([
      ...Array.from({ length: spec.tasks }, () => newWorkItem('task')),
      ...Array.from({ length: spec.assessments }, () => newWorkItem('assessment')),
    ]);
    prober = new GetProber(client, items, POLLERS, POLL_PAUSE_MS);
    const started = Date.now();
    const submitDeadline = started + profile.drainTimeoutMs;
    const submitting = forEachConcurrently(items, SUBMIT_LANES, async (item, index) => {
      await sleep(started + (index * 1000) / profile.crashSubmitRate - Date.now());
      await submitUntilAccepted(client, item, submitDeadline, abort.signal);
    });

    await waitUntil(
      'a third of the work accepted with summaries in flight',
      () => items.filter((item) => item.accepted).length >= items.length / 3 && (stack.slowProvider?.inFlight ?? 1) > 0,
      FAULT_TRIGGER_TIMEOUT_MS,
      10,
    );
    const deadlineTasks = await submitDeadlineTasks(client, submitDeadline, abort.signal);
    const inFlight = stack.slowProvider?.inFlight;
    const struckAt = Date.now();
    const fault = await spec.fault(stack, log);
    const faultOverAt = Date.now();
    await submitting;
    const allAcceptedAt = Date.now();
    log(`all work submitted ${seconds(allAcceptedAt - fault.recoveryFrom)} after the ${fault.recoveryEvent}`);
    const audit = await stack.auditClient();
    const [tasksDoneAt, checksDoneAt] = await Promise.all([
      ...(['task', 'assessment'] as const).map((kind) => waitForDrain(audit, items.filter((item) => item.kind === kind), 'checked', profile.drainTimeoutMs)),
      // Not part of the recovery time; their GETs below show any still pending.
      waitForDrain(audit, deadlineTasks.items, 'checked', profile.drainTimeoutMs),
    ]);
    const drainedAt = tasksDoneAt === undefined || checksDoneAt === undefined ? undefined : Math.max(tasksDoneAt, checksDoneAt);
    if (spec.assessments > 0) {
      await reviewAll(audit, items);
      await waitForDrain(audit, items, 'completed', profile.drainTimeoutMs);
    }
    await prober.stop();

    const accepted = new Set([...items, ...deadlineTasks.items].flatMap((item) => [...item.ids])).size;
    const records = partitionRecords(deadlineTasks, await auditNamespace(audit, accepted));
    const tally = tallyWork(items, records.rest, spec.assessments > 0 ? 'completed' : 'checked');
    const deadlines = await checkDeadlineTasks(client, deadlineTasks, records.deadline);
    const notes = [
      ...(spec.assessments > 0 ? [`${spec.tasks} tasks and ${spec.assessments} assessments (each reviewed after the checks)`] : []),
      ...(inFlight !== undefined ? [`${inFlight} summaries in flight at the fault`] : []),
      ...fault.notes,
      deadlines.note,
      `deadline tasks in flight at the fault: deadline ${relative(deadlineTasks.deadline - struckAt, 'the kill')}` +
        (fault.recoveryEvent === 'restart' ? ` and ${relative(deadlineTasks.deadline - faultOverAt, 'the restarted process was serving')}` : ' (nothing restarts)'),
      `clients had every item accepted ${seconds(allAcceptedAt - fault.recoveryFrom)} after the ${fault.recoveryEvent}`,
      ...(spec.assessments > 0 && tasksDoneAt && checksDoneAt
        ? [`tasks done ${seconds(tasksDoneAt - fault.recoveryFrom)}, assessment checks ${seconds(checksDoneAt - fault.recoveryFrom)} after the ${fault.recoveryEvent}`]
        : []),
      `clients: ${ledger.responses} answers, ${ledger.networkErrors} connection errors and ${ledger.retryable503} 503 + Retry-After, creates retried`,
      ...(stack.slowProvider ? [`provider called again for ${stack.slowProvider.repeatedCalls} task(s) whose first call a crash cut off`] : []),
      ...(drainedAt === undefined ? [`work still not done ${seconds(profile.drainTimeoutMs)} after the fault`] : []),
    ];
    const result = tallyResult(spec.name, tally, ledger, {
      recoveryMs: drainedAt === undefined ? undefined : drainedAt - fault.recoveryFrom,
      notes,
      problems: deadlines.problems,
    });
    clean = result.problems.length === 0;
    return result;
  } finally {
    await endScenario(stack, { abort, prober, clean, label: spec.name, log });
  }
}

function relative(ms: number, event: string): string {
  return `${seconds(Math.abs(ms))} ${ms < 0 ? 'before' : 'after'} ${event}`;
}
