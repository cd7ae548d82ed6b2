import { Injectable } from '@nestjs/common';
import { KEY_ENVIRONMENTS } from '../../../common/keys/api-key';
import { KeyStore } from '../../../common/storage/key-store';
import { TemporalClients } from '../temporal/temporal-clients';

/** Each dependency must answer within this; a probe's own timeout should be longer (3 s or more). */
export const READINESS_TIMEOUT_MS = 2_000;

// No key has this id (ids are key_<ULID>), so the lookup is a real query that finds nothing.
const PROBE_KEY_ID = 'key_readiness_probe';

export type CheckName = 'temporal' | 'key_store';

export interface ReadinessReport {
  ready: boolean;
  checks: Record<CheckName, 'ok' | 'failed'>;
  /** Why each failed check failed; for the log, not for the client. */
  errors: Partial<Record<CheckName, string>>;
}

/** Whether this API instance can serve requests: Temporal answers for both namespaces and the key store answers a query. */
@Injectable()
export class ReadinessProbe {
  constructor(
    private readonly temporal: TemporalClients,
    private readonly keys: KeyStore,
  ) {}

  async check(): Promise<ReadinessReport> {
    const [temporal, keyStore] = await Promise.all([settle(() => this.temporalAnswers()), settle(() => this.keyStoreAnswers())]);
    const results: Record<CheckName, string | undefined> = { temporal, key_store: keyStore };
    const report: ReadinessReport = { ready: true, checks: { temporal: 'ok', key_store: 'ok' }, errors: {} };
    for (const name of Object.keys(results) as CheckName[]) {
      const error = results[name];
      if (error === undefined) continue;
      report.ready = false;
      report.checks[name] = 'failed';
      report.errors[name] = error;
    }
    return report;
  }

  /** Waits for both namespaces' answers even when one fails, so no call is left retrying after the probe returns. */
  private async temporalAnswers(): Promise<void> {
    const answers = await Promise.allSettled(
      KEY_ENVIRONMENTS.map((environment) =>
        this.temporal.withDeadline(
          () => this.temporal.workflows(environment).workflowService.describeNamespace({ namespace: this.temporal.namespaceFor(environment) }),
          READINESS_TIMEOUT_MS,
        ),
      ),
    );
    const failure = answers.find((answer) => answer.status === 'rejected');
    if (failure) throw failure.reason;
  }

  private async keyStoreAnswers(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${READINESS_TIMEOUT_MS} ms`)), READINESS_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.keys.findById(PROBE_KEY_ID), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** undefined when the check passed, else what went wrong. */
async function settle(check: () => Promise<void>): Promise<string | undefined> {
  try {
    await check();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
