import { AssayClient } from '../src/sdk';
import type { BenchStack } from './bench-stack';

/**
 * The SDK exactly as a customer runs it (the polling schedule of docs/api.md, Polling), except
 * that a failed create is counted instead of retried, so errors show in the figures rather than
 * as latency.
 */
export function benchClient(stack: BenchStack, apiKey: string = stack.apiKey): AssayClient {
  return new AssayClient({ baseUrl: stack.baseUrl, apiKey, retry: { maxRetries: 0 } });
}
