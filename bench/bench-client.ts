import { AssayClient } from '../src/sdk';
import type { BenchStack } from './bench-stack';

/**
 * The SDK exactly as a customer runs it (the polling schedule of docs/api.md, Polling), except
 * that a failed create is counted instead of retried, so errors show in the figures rather than
 * as latency.
 */
export function benchClient(stack: BenchStack, apiKey: string = stack.apiKey, baseUrl: string = stack.baseUrl): AssayClient {
  return new AssayClient({ baseUrl, apiKey, retry: { maxRetries: 0 } });
}

/** A client per API instance of the stack, taken in turn for each task, as a load balancer in front of them would spread tasks. */
export function benchClients(stack: BenchStack, apiKey: string = stack.apiKey): () => AssayClient {
  const clients = stack.baseUrls.map((baseUrl) => benchClient(stack, apiKey, baseUrl));
  let next = 0;
  return () => clients[next++ % clients.length];
}
