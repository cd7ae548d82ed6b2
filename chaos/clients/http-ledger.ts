import type { FetchFunction } from '../../src/sdk';

const SAMPLES_KEPT = 5;

/**
 * Which 503 + Retry-After answers a scenario accepts. That answer is the API's documented "retry
 * shortly" (Temporal unreachable or slower than its deadline). To a create it is always
 * acceptable: the SDK retries under the same Idempotency-Key. To a read only while the scenario
 * has taken Temporal down on purpose.
 */
export type Retryable503Policy = 'creates' | 'creates-and-reads';

/** Every HTTP answer the scenario's clients got; what counts as a 5xx follows the policy above. */
export class HttpLedger {
  responses = 0;
  retryable503 = 0;
  networkErrors = 0;
  private counted5xx = 0;
  private readonly samples5xx: string[] = [];

  constructor(private readonly policy: Retryable503Policy = 'creates') {}

  record(status: number, headers: Headers, method: string, path: string): void {
    this.responses++;
    if (status < 500) return;
    const retryable = status === 503 && headers.has('retry-after');
    if (retryable) this.retryable503++;
    if (retryable && (method === 'POST' || this.policy === 'creates-and-reads')) return;
    this.counted5xx++;
    if (this.samples5xx.length < SAMPLES_KEPT) this.samples5xx.push(`${status} to ${method} ${path} (x-request-id ${headers.get('x-request-id') ?? '-'})`);
  }

  recordNetworkError(): void {
    this.networkErrors++;
  }

  /** The 5xx answers that count against the scenario. */
  get serverErrors(): number {
    return this.counted5xx;
  }

  /** A few of them, to find in the API's log. */
  get samples(): readonly string[] {
    return this.samples5xx;
  }

  /** A fetch for the SDK that books every answer here. */
  fetch(): FetchFunction {
    return async (url, init) => {
      try {
        const response = await globalThis.fetch(url, init);
        this.record(response.status, response.headers, init.method ?? 'GET', new URL(url).pathname);
        return response;
      } catch (error) {
        this.recordNetworkError();
        throw error;
      }
    };
  }
}
