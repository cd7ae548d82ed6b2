/**
 * One environment for the whole test file (a server, a testbed): started before its first test and
 * stopped after its last. Call the result inside a test or a hook that runs after the file's
 * beforeAll.
 */
export function perFile<T extends { stop(): Promise<void> }>(start: () => Promise<T>): () => T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.stop();
  });
  return () => {
    if (!started) throw new Error('the environment of this test file did not start');
    return started;
  };
}
