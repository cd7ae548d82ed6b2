import { ApiWithoutTemporal } from '../../support/api-without-temporal';
import { bearer, http } from '../../support/http';

let api: ApiWithoutTemporal;
let baseUrl: string;
let key: string;

beforeAll(async () => {
  api = await ApiWithoutTemporal.start({ TEMPORAL_RPC_TIMEOUT_MS: '1000' });
  baseUrl = api.baseUrl;
  key = (await api.issueKey('acme', 'test')).key;
});

afterAll(async () => {
  await api?.stop();
});

describe('Temporal unreachable', () => {
  it('answers a create with 503 SERVICE_UNAVAILABLE and Retry-After, not 500', async () => {
    const response = await http(`${baseUrl}/v1/ai/tasks`, {
      method: 'POST',
      headers: bearer(key),
      json: { task_type: 'summarize', input: { text: 'Some text.' } },
    });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(response.headers.get('retry-after')).toBeTruthy();
  });

  it('answers a poll with 503 within the RPC deadline', async () => {
    const response = await http(`${baseUrl}/v1/ai/tasks/task_01JAAAAAAAAAAAAAAAAAAAAAAA`, { headers: bearer(key) });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('still validates and authenticates before touching Temporal', async () => {
    expect((await http(`${baseUrl}/v1/ai/tasks/task_01JAAAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(401);
    const invalid = await http(`${baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: { task_type: 'summarize' } });
    expect(invalid.status).toBe(400);
  });

  it('keeps /healthz answering', async () => {
    expect((await http(`${baseUrl}/healthz`)).status).toBe(200);
  });
});
