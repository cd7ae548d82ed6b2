import { Storage } from '../../src/common/storage/storage';
import { ApiWithoutTemporal } from '../support/api-without-temporal';
import { AssayHarness } from '../support/assay-harness';
import { http } from '../support/http';

describe('with Temporal and the key store up', () => {
  let harness: AssayHarness;

  beforeAll(async () => {
    harness = await AssayHarness.start({ worker: false });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it('answers /healthz 200 without a key', async () => {
    const response = await http(`${harness.baseUrl}/healthz`);
    expect(response).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('answers /readyz 200 with every check ok, without a key', async () => {
    const response = await http(`${harness.baseUrl}/readyz`);
    expect(response).toMatchObject({ status: 200, body: { status: 'ready', checks: { temporal: 'ok', key_store: 'ok' } } });
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  });
});

describe('with a dependency down', () => {
  let api: ApiWithoutTemporal;
  let baseUrl: string;

  beforeAll(async () => {
    api = await ApiWithoutTemporal.start();
    baseUrl = api.baseUrl;
  });

  afterAll(async () => {
    await api?.stop();
  });

  it('still answers /healthz 200: liveness never depends on Temporal', async () => {
    expect((await http(`${baseUrl}/healthz`)).status).toBe(200);
  });

  it('answers /readyz 503 SERVICE_UNAVAILABLE naming Temporal, with Retry-After', async () => {
    const response = await http(`${baseUrl}/readyz`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(response.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'Not ready: temporal unreachable' });
    expect(response.body.error.request_id).toBe(response.headers.get('x-request-id'));
  });

  it('names the key store too once it stops answering', async () => {
    await api.app.get(Storage).close();
    const response = await http(`${baseUrl}/readyz`);
    expect(response.status).toBe(503);
    expect(response.body.error.message).toBe('Not ready: temporal and key_store unreachable');
  });
});
