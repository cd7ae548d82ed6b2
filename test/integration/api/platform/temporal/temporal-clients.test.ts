import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TemporalClients } from '../../../../../src/api/platform/temporal/temporal-clients';
import { AppConfig } from '../../../../../src/common/config/app-config';
import { freePort } from '../../../../../src/embedded/free-port';

// Nothing listens on the port: every call is refused with UNAVAILABLE and retried on a timer until
// its deadline. A retry that finds the channel closed throws outside any caller, so jest fails the
// file if close() does not wait for the calls in flight.
describe('TemporalClients, with Temporal unreachable', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'assay-temporal-clients-'));
  });

  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('closes only after a call in flight has settled, which fails with its own error', async () => {
    const config = new AppConfig({ TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`, DATA_DIR: dataDir, TEMPORAL_RPC_TIMEOUT_MS: '1000' });
    const clients = TemporalClients.create(config);
    const call = clients.describe('test', 'task_01JAAAAAAAAAAAAAAAAAAAAAAA');
    const outcome = call.then(
      () => 'answered',
      () => 'failed',
    );
    await clients.close();
    expect(await Promise.race([outcome, Promise.resolve('still in flight')])).toBe('failed');
    // Past the retry interceptor's longest back-off: a timer left behind would have fired by now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
  });
});
