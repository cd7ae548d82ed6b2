import type { HttpResult } from '../../support/http';
import { ApiWithoutTemporal } from '../../support/api-without-temporal';
import { API_OPERATIONS } from '../../support/api-operations';
import { bearer, http } from '../../support/http';
import { operationName, sendEveryOperation } from '../../support/operation-requests';
import { ANSWERED_WITHOUT_TEMPORAL } from '../../support/operations-without-temporal';
import { storeEndpointWithDelivery } from '../../support/stored-webhook';

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

describe('every operation while Temporal is unreachable', () => {
  let answers: Map<string, HttpResult>;

  beforeAll(async () => {
    const reviewer = (await api.addReviewer('alice', 'test')).credential;
    // Real ids where the API checks its own database before Temporal, so the request gets that far.
    const { endpointId, deliveryId } = await api.withStorage((storage) => storeEndpointWithDelivery(storage.webhooks, 'acme', 'test'));
    answers = await sendEveryOperation(baseUrl, API_OPERATIONS, { key, reviewer }, { ids: { endpoint_id: endpointId, delivery_id: deliveryId } });
  });

  it.each(API_OPERATIONS.filter((operation) => !ANSWERED_WITHOUT_TEMPORAL.has(operationName(operation))).map(operationName))(
    '%s answers 503 SERVICE_UNAVAILABLE with Retry-After',
    (name) => {
      const answer = answers.get(name) as HttpResult;
      expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    },
  );

  it.each([...ANSWERED_WITHOUT_TEMPORAL])('%s answers as usual, without an error of the server', (name) => {
    expect((answers.get(name) as HttpResult).status).toBeLessThan(500);
  });
});
