import { Connection } from '@temporalio/client';
import { applyNamespaceRetention } from '../../../../src/common/temporal/namespace-retention';
import type { DevServer } from '../../../../src/embedded/temporal-dev-server';
import { reportedRetentionMs } from '../../../support/temporal-operator';
import { PRODUCTION_NAMESPACE, SANDBOX_NAMESPACE, startTestTemporal } from '../../../support/test-temporal';

const DAY_MS = 24 * 60 * 60 * 1000;

let server: DevServer;
let connection: Connection;

beforeAll(async () => {
  server = await startTestTemporal();
  connection = await Connection.connect({ address: server.address });
});

afterAll(async () => {
  await connection?.close();
  await server?.stop();
});

describe('applyNamespaceRetention', () => {
  it('changes the dev server’s 24 hours to the setting, as `temporal operator namespace describe` reports it', async () => {
    expect(await reportedRetentionMs(server.address, SANDBOX_NAMESPACE)).toBe(DAY_MS);
    const applied = await applyNamespaceRetention(connection, [SANDBOX_NAMESPACE, PRODUCTION_NAMESPACE], 30 * DAY_MS);
    expect(applied).toEqual([
      { namespace: SANDBOX_NAMESPACE, retentionMs: 30 * DAY_MS },
      { namespace: PRODUCTION_NAMESPACE, retentionMs: 30 * DAY_MS },
    ]);
    expect(await reportedRetentionMs(server.address, SANDBOX_NAMESPACE)).toBe(30 * DAY_MS);
    expect(await reportedRetentionMs(server.address, PRODUCTION_NAMESPACE)).toBe(30 * DAY_MS);
  });

  it('changes it again when the setting changes', async () => {
    expect(await applyNamespaceRetention(connection, [SANDBOX_NAMESPACE], 90 * DAY_MS)).toEqual([{ namespace: SANDBOX_NAMESPACE, retentionMs: 90 * DAY_MS }]);
    expect(await reportedRetentionMs(server.address, SANDBOX_NAMESPACE)).toBe(90 * DAY_MS);
  });

  it('registers a namespace that does not exist yet with the retention', async () => {
    const namespace = `retention-${Date.now()}`;
    expect(await applyNamespaceRetention(connection, [namespace], 7 * DAY_MS)).toEqual([{ namespace, retentionMs: 7 * DAY_MS }]);
    expect(await reportedRetentionMs(server.address, namespace)).toBe(7 * DAY_MS);
  });
});
