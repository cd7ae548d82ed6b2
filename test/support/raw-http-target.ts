import { AssayHarness } from './assay-harness';
import { perFile } from './per-file';

/** Where raw HTTP bytes go: the port of the service without a worker, and a sandbox key. */
export interface RawHttpTarget {
  key: string;
  port: number;
  stop(): Promise<void>;
}

async function startRawHttpTarget(): Promise<RawHttpTarget> {
  const harness = await AssayHarness.start({ worker: false });
  const key = (await harness.issueKey('acme', 'test')).key;
  return { key, port: Number(new URL(harness.baseUrl).port), stop: () => harness.stop() };
}

/** The service for one test file's raw HTTP tests, started before them and stopped after them; call the result inside a test. */
export function rawHttpTargetPerFile(): () => RawHttpTarget {
  return perFile(startRawHttpTarget);
}
