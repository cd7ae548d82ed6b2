import { ApiWithoutTemporal } from '../../support/api-without-temporal';
import { TINY_GRAPH } from '../../support/graphs';
import { bearer, http, type HttpResult } from '../../support/http';
import { storeEndpointWithDelivery } from '../../support/stored-webhook';
import { testPostgresPerFile } from '../../support/test-postgres';

// Every text field the API stores refuses control characters with 400 INVALID_REQUEST naming the
// field (ids, keys and URLs by the shape they must have, free text by its control-character check), before anything is stored or started, on SQLite and on PostgreSQL alike (a NUL was a 500
// on PostgreSQL). Temporal is down: what passes validation answers 503, so a 400 can only be the
// validation's.

const NUL = '\u0000';
const ESCAPE = '\u001b';

const task = (text: string) => ({ task_type: 'summarize', input: { text } });
const batch = (key: string, text: string) => ({ task_type: 'summarize', items: [{ key, input: { text } }] });
const component = TINY_GRAPH.components[0];
const assessment = (change: (body: any) => void) => {
  const body: any = structuredClone({ name: 'Shop', context: 'Two boxes.', ...TINY_GRAPH });
  change(body);
  return body;
};
// A loopback URL, taken in the sandbox without DNS (SETTINGS), so a body that passes validation is stored.
const webhook = (change: Record<string, unknown>) => ({ url: 'http://127.0.0.1:9/hook', events: ['ai_task.completed'], ...change });

/** [field, path, body]: a request whose only fault is a control character in that field. */
const REFUSED: Array<[string, string, unknown]> = [
  ['input.text', '/v1/ai/tasks', task(`Some text.${NUL}`)],
  ['input.text', '/v1/ai/tasks', task(`Some ${ESCAPE}[31mred${ESCAPE}[0m text.`)],
  ['items.0.key', '/v1/ai/batches', batch(`doc${NUL}`, 'Some text.')],
  ['items.0.input.text', '/v1/ai/batches', batch('doc-1', `Some text.${NUL}`)],
  ['name', '/v1/network-assessments', assessment((body) => (body.name = `Shop${NUL}`))],
  ['context', '/v1/network-assessments', assessment((body) => (body.context = `Two boxes.${NUL}`))],
  ['components.0.id', '/v1/network-assessments', assessment((body) => (body.components[0].id = `${component.id}${NUL}`))],
  ['components.0.kind', '/v1/network-assessments', assessment((body) => (body.components[0].kind = `server${NUL}`))],
  ['components.0.zone', '/v1/network-assessments', assessment((body) => (body.components[0].zone = `eu-1${NUL}`))],
  [`components.0.attributes.os${NUL}`, '/v1/network-assessments', assessment((body) => (body.components[0].attributes = { [`os${NUL}`]: 'linux' }))],
  ['components.0.attributes.os', '/v1/network-assessments', assessment((body) => (body.components[0].attributes = { os: `linux${NUL}` }))],
  ['links.0.kind', '/v1/network-assessments', assessment((body) => (body.links = [{ from: component.id, to: component.id, kind: `tcp${NUL}` }]))],
  ['description', '/v1/webhook-endpoints', webhook({ description: `Orders${NUL}` })],
  ['description', '/v1/webhook-endpoints', webhook({ description: 'Orders\nand refunds' })],
  ['url', '/v1/webhook-endpoints', webhook({ url: `http://127.0.0.1:9/${NUL}` })],
];

const SETTINGS = { TEMPORAL_RPC_TIMEOUT_MS: '1000', WEBHOOKS_ALLOW_INSECURE_SANDBOX: 'true' };

const postgres = testPostgresPerFile();

describe.each([
  ['SQLite', async () => ApiWithoutTemporal.start(SETTINGS)],
  ['PostgreSQL', async () => ApiWithoutTemporal.start({ ...SETTINGS, DATABASE_URL: await postgres().createDatabase() })],
])('control characters, on %s', (_database, start) => {
  let api: ApiWithoutTemporal;
  let key: string;
  let reviewer: string;

  beforeAll(async () => {
    api = await start();
    key = (await api.issueKey('acme', 'test')).key;
    reviewer = (await api.addReviewer('alice', 'test')).credential;
  });

  afterAll(async () => {
    await api?.stop();
  });

  function expectRefused(response: HttpResult, field: string): void {
    expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
    expect(response.body.error.message).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}: `));
  }

  it.each(REFUSED)('refuses one in %s of POST %s with 400 naming the field', async (field, path, body) => {
    expectRefused(await http(`${api.baseUrl}${path}`, { method: 'POST', headers: bearer(key), json: body }), field);
  });

  it("refuses one in a reviewer's notes", async () => {
    const response = await http(`${api.baseUrl}/v1/review/assessments/asmt_01JB8ZM2D7E9F1G3H5J7K9M1N3/complete`, {
      method: 'POST',
      headers: bearer(reviewer),
      json: { verdict: 'approved', notes: `Fine.${NUL}` },
    });
    expectRefused(response, 'notes');
  });

  it('takes tabs and line breaks in multi-line text: past validation, to Temporal (down, so 503)', async () => {
    const text = 'First line.\r\n\tSecond line.';
    expect((await http(`${api.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: task(text) })).status).toBe(503);
    expect((await http(`${api.baseUrl}/v1/network-assessments`, { method: 'POST', headers: bearer(key), json: assessment((body) => (body.context = text)) })).status).toBe(503);
  });

  it('stores a webhook description without control characters, and refuses one with a NUL without storing anything', async () => {
    const stored = await http(`${api.baseUrl}/v1/webhook-endpoints`, { method: 'POST', headers: bearer(key), json: webhook({ description: 'Orders — ünïcode' }) });
    expect(stored.status).toBe(201);
    const list = await http(`${api.baseUrl}/v1/webhook-endpoints`, { headers: bearer(key) });
    expect(list.body.data.map((endpoint: { description?: string }) => endpoint.description)).toEqual(['Orders — ünïcode']);
  });

  it('answers 404, not 500, for a delivery id holding a NUL', async () => {
    const { endpointId } = await api.withStorage((storage) => storeEndpointWithDelivery(storage.webhooks, 'acme', 'test'));
    const response = await http(`${api.baseUrl}/v1/webhook-endpoints/${endpointId}/deliveries/wd_${encodeURIComponent(NUL)}/redeliver`, { method: 'POST', headers: bearer(key) });
    expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it('answers 400 for a list cursor holding a NUL', async () => {
    const response = await http(`${api.baseUrl}/v1/ai/tasks?cursor=${encodeURIComponent(`abc${NUL}.def`)}`, { headers: bearer(key) });
    expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
  });
});
