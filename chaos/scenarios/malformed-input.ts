import fc from 'fast-check';
import { HttpLedger } from '../clients/http-ledger';
import { newWorkItem, taskRequest } from '../clients/work-items';
import { badRequest, type BadRequest } from '../malformed/bad-requests';
import { describeRequest } from '../malformed/describe-request';
import { errorAnswerProblem } from '../malformed/error-body';
import { requestBytes, sendRaw } from '../../test/support/raw-http';
import type { ScenarioResult } from '../report/scenario-result';
import { ChaosStack } from '../stack/chaos-stack';
import { ledgerClient, type ScenarioRun } from './scenario-context';

// Each run of the property sends this many requests at once: the API is the bottleneck, not the client.
const REQUESTS_PER_RUN = 8;
// Between bad requests, a good create and read now and then: the API must keep serving them.
const GOOD_REQUEST_EVERY_RUNS = 50;

class BadAnswerError extends Error {
  constructor(bad: BadRequest, problem: string) {
    super(`${bad.category}: ${problem}\n${describeRequest(bad.request)}`);
  }
}

/**
 * Property-based: fast-check generates bad requests of every kind and sends them as raw bytes to
 * the running API. The property: never a 5xx, never an accepted bad request, always the error
 * body. fast-check shrinks a failure to the smallest request that still fails, which is reported.
 */
export async function runMalformedInput(run: ScenarioRun): Promise<ScenarioResult> {
  const stack = await ChaosStack.start({ label: 'malformed', workers: [] });
  let clean = false;
  try {
    const port = Number(new URL(stack.baseUrl).port);
    const ledger = new HttpLedger();
    const client = ledgerClient(stack, ledger);
    const byStatus = new Map<number, number>();
    const counts = { sent: 0, refusedWell: 0, serverErrors: 0, goodPairs: 0, runs: 0 };

    const send = async (bad: BadRequest) => {
      const response = await sendRaw(port, requestBytes(bad.request));
      counts.sent++;
      byStatus.set(response.status, (byStatus.get(response.status) ?? 0) + 1);
      if (response.status >= 500) counts.serverErrors++;
      const problem = errorAnswerProblem(response, bad.request.method);
      if (problem) throw new BadAnswerError(bad, problem);
      counts.refusedWell++;
    };
    const property = fc.asyncProperty(fc.array(badRequest(stack.apiKey), { minLength: REQUESTS_PER_RUN, maxLength: REQUESTS_PER_RUN }), async (batch) => {
      if (counts.runs++ % GOOD_REQUEST_EVERY_RUNS === 0) {
        const task = await client.createTask(taskRequest(newWorkItem('task')));
        await client.getTask(task.id);
        counts.goodPairs++;
      }
      const outcomes = await Promise.allSettled(batch.map(send));
      const failure = outcomes.find((outcome) => outcome.status === 'rejected');
      if (failure) throw failure.reason;
    });
    const numRuns = Math.ceil(run.profile.malformedRequests / REQUESTS_PER_RUN);
    const details = await fc.check(property, { numRuns });
    const problems: string[] = [];
    if (details.failed) {
      const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      problems.push(`fast-check found a bad answer (seed ${details.seed}, path ${details.counterexamplePath}); smallest failing request:\n${error}`);
    }
    const stillUp = stack.api?.alive === true;
    if (!stillUp) problems.push('the API process died');
    await client.createTask(taskRequest(newWorkItem('task'))).catch((error: unknown) => problems.push(`a good create failed after the run: ${String(error)}`));
    problems.push(...ledger.samples.map((sample) => `5xx to a good request: ${sample}`));

    const statuses = [...byStatus.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`);
    const result: ScenarioResult = {
      scenario: 'malformed requests (fast-check)',
      tasks: counts.sent,
      succeeded: counts.refusedWell,
      lost: 0,
      duplicated: 0,
      serverErrors: counts.serverErrors + ledger.serverErrors,
      notes: [
        `"tasks" are bad requests and "succeeded" those refused with a 4xx and the error body; seed ${details.seed}`,
        `answers: ${statuses.join(', ')}`,
        `${counts.goodPairs} good create + read pairs in between, all served; the API ${problems.length === 0 ? 'stayed up and served good requests after the run' : 'did NOT come through'}`,
      ],
      problems,
    };
    clean = problems.length === 0;
    return result;
  } finally {
    await stack.stop({ keepFiles: !clean });
    if (!clean) run.log(`malformed input: logs kept in ${stack.dir}`);
  }
}
