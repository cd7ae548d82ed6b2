import { setMaxListeners } from 'node:events';
import { AssayClient } from '../../src/sdk';
import type { GetProber } from '../clients/get-prober';
import type { HttpLedger } from '../clients/http-ledger';
import type { Profile } from '../profiles';
import type { Client } from '@temporalio/client';
import type { SlowProvider } from '../stack/slow-provider';

/** Progress lines go here (stderr in the runner, nowhere in jest). */
export type ProgressLog = (message: string) => void;

export interface ScenarioRun {
  profile: Profile;
  log: ProgressLog;
}

/** What a scenario needs of the service it runs against. */
export interface ScenarioStack {
  /** Where the scenario's clients send their requests. */
  baseUrl: string;
  /** A sandbox key of the chaos organisation. */
  apiKey: string;
  /** Logs and databases, kept when a scenario fails. */
  dir: string;
  slowProvider?: SlowProvider;
  /** A Temporal client on the sandbox namespace, for the evidence. */
  auditClient(): Promise<Client>;
  stop(options?: { keepFiles?: boolean }): Promise<void>;
}

// Requests may wait on Temporal for its 5 s deadline; give them room beyond that.
const REQUEST_TIMEOUT_MS = 15_000;

/** An SDK client of the stack whose every answer is booked in `ledger`. */
export function ledgerClient(stack: Pick<ScenarioStack, 'baseUrl' | 'apiKey'>, ledger: HttpLedger): AssayClient {
  return new AssayClient({ baseUrl: stack.baseUrl, apiKey: stack.apiKey, fetch: ledger.fetch(), requestTimeoutMs: REQUEST_TIMEOUT_MS });
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Ends a scenario's clients (submissions still retrying) when it is over; every request in flight listens to it. */
export function clientsAbort(): AbortController {
  const abort = new AbortController();
  setMaxListeners(0, abort.signal);
  return abort;
}

/** What a scenario has running when it ends, and how it went. */
export interface ScenarioEnd {
  abort: AbortController;
  prober?: GetProber;
  /** False when the scenario failed or found a problem: its files are then kept. */
  clean: boolean;
  /** The scenario, as the line that says where its files are kept names it. */
  label: string;
  log: ProgressLog;
}

/** Stops a scenario's clients, then its stack; a run that was not clean keeps its logs and databases, to be looked into. */
export async function endScenario(stack: ScenarioStack, { abort, prober, clean, label, log }: ScenarioEnd): Promise<void> {
  abort.abort();
  await prober?.stop();
  await stack.stop({ keepFiles: !clean });
  if (!clean) log(`${label}: logs and databases kept in ${stack.dir}`);
}
