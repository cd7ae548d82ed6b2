import { AssayHarness } from './assay-harness';

/** The service without a worker, a sandbox key and the port raw HTTP bytes go to: what the HTTP-level tests need. */
export interface RawHttpTarget {
  harness: AssayHarness;
  key: string;
  port: number;
}

export async function startRawHttpTarget(): Promise<RawHttpTarget> {
  const harness = await AssayHarness.start({ worker: false });
  const key = (await harness.issueKey('acme', 'test')).key;
  return { harness, key, port: Number(new URL(harness.baseUrl).port) };
}
