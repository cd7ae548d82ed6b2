import { requestBytes, sendRaw, type RawRequest, type RawResponse } from '../support/raw-http';
import { rawHttpTargetPerFile } from '../support/raw-http-target';
import { errorOf } from '../support/raw-error-body';

// HTTP as RFC 9110/9112 define it, against the real service: these used to be 404 "No such route"
// (another method on a known path), 431 (an over-long URL), Fastify's own text (an unknown
// method) and 401 (a lower-case auth scheme).

const service = rawHttpTargetPerFile();

const TASK_PATH = '/v1/ai/tasks/task_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0';

async function send(method: string, target: string, headers: RawRequest['headers'] = [['Authorization', `Bearer ${service().key}`]]): Promise<RawResponse> {
  return sendRaw(service().port, requestBytes({ method, target, headers }));
}

describe('a known path with a method it does not have is 405 with Allow', () => {
  it.each(['PUT', 'PATCH'])('answers %s on a task with 405 and Allow: GET, HEAD, DELETE', async (method) => {
    const response = await send(method, TASK_PATH);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, DELETE');
    expect(errorOf(response).code).toBe('METHOD_NOT_ALLOWED');
  });

  it('answers TRACE and OPTIONS on the task collection with the methods it has', async () => {
    for (const method of ['TRACE', 'OPTIONS']) {
      const response = await send(method, '/v1/ai/tasks');
      expect([method, response.status, response.headers.allow]).toEqual([method, 405, 'GET, HEAD, POST']);
      expect(errorOf(response).code).toBe('METHOD_NOT_ALLOWED');
    }
  });

  it('answers GET on an action with Allow: POST, and still 404 on a path that does not exist', async () => {
    const action = await send('GET', `${TASK_PATH}/cancel`);
    expect([action.status, action.headers.allow]).toEqual([405, 'POST']);
    const unknown = await send('PUT', '/v1/no-such-thing');
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown).code).toBe('NOT_FOUND');
  });
});

describe('an over-long URL is 414', () => {
  it.each([
    ['a 17,000-byte query string', `/v1/ai/tasks?cursor=${'c'.repeat(17_000)}`],
    ['a 17,000-byte path', `/v1/${'segment/'.repeat(2_125)}`],
    ['a 9,000-byte query string Node lets through', `/v1/ai/tasks?cursor=${'c'.repeat(9_000)}`],
  ])('answers %s with 414 and the error body', async (_name, target) => {
    const response = await send('GET', target);
    expect(response.status).toBe(414);
    expect(errorOf(response).code).toBe('INVALID_REQUEST');
  });

  it('still answers headers over the limit with 431', async () => {
    const response = await send('GET', '/v1/ai/tasks', [['X-Padding', 'p'.repeat(20_000)]]);
    expect(response.status).toBe(431);
  });
});

describe('an unknown method is 501', () => {
  it.each(['QUERY', 'PROPFIND', 'BREW'])('answers %s with 501 and the error body', async (method) => {
    const response = await send(method, '/v1/ai/tasks');
    expect(response.status).toBe(501);
    expect(errorOf(response).code).toBe('NOT_IMPLEMENTED');
  });

  it('still answers bytes that are no request line with 400', async () => {
    const response = await sendRaw(service().port, Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x0d, 0x0a, 0x0d, 0x0a]));
    expect(response.status).toBe(400);
  });
});

describe('the Authorization scheme is case-insensitive (RFC 9110 §11.1)', () => {
  it.each(['bearer', 'BEARER', 'Bearer  '])('accepts the key with the scheme written %j', async (scheme) => {
    const response = await send('GET', '/v1/ai/tasks', [['Authorization', `${scheme} ${service().key}`]]);
    expect(response.status).toBe(200);
  });

  it('still refuses another scheme', async () => {
    const response = await send('GET', '/v1/ai/tasks', [['Authorization', `Basic ${service().key}`]]);
    expect(response.status).toBe(401);
  });
});
