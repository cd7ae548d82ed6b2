import { AssayHarness } from './assay-harness';

/** Where raw HTTP bytes go: the port of the service without a worker, and a sandbox key. */
export interface RawHttpTarget {
  key: string;
  port: number;
}

/**
 * The service for one test file's raw HTTP tests: started before them and stopped after them. Its
 * fields are filled in once the file's beforeAll has run, so read them inside the tests.
 */
export function useRawHttpTarget(): Readonly<RawHttpTarget> {
  const target: RawHttpTarget = { key: '', port: 0 };
  let harness: AssayHarness | undefined;
  beforeAll(async () => {
    harness = await AssayHarness.start({ worker: false });
    target.key = (await harness.issueKey('acme', 'test')).key;
    target.port = Number(new URL(harness.baseUrl).port);
  });
  afterAll(async () => {
    await harness?.stop();
  });
  return target;
}
