import { randomUUID } from 'node:crypto';
import { requestBytes, sendRaw, type RawRequest, type RawResponse } from '../support/raw-http';
import { rawHttpTargetPerFile } from '../support/raw-http-target';
import { errorOf } from '../support/raw-error-body';

// Regressions found by the chaos suite's malformed-input scenario: each of these requests used to
// be accepted, or refused without the error body every non-2xx must carry.

const service = rawHttpTargetPerFile();

function createTask(body: Buffer | string, headers: RawRequest['headers'] = []): RawRequest {
  return {
    method: 'POST',
    target: '/v1/ai/tasks',
    headers: [['Authorization', `Bearer ${service().key}`], ['Content-Type', 'application/json'], ...headers],
    body: Buffer.from(body),
  };
}

async function send(request: RawRequest): Promise<RawResponse> {
  return sendRaw(service().port, requestBytes(request));
}

const TEXT = 'Zürich approved the plan. 漢字 and 🙂 are fine.';

describe('JSON bodies are read as strict UTF-8', () => {
  it('refuses a body with invalid UTF-8 with 400 instead of replacing the bytes and accepting it', async () => {
    const body = Buffer.concat([Buffer.from('{"task_type":"summarize","input":{"text":"abc '), Buffer.from([0xff, 0xfe]), Buffer.from(' def"}}')]);
    const response = await send(createTask(body));
    expect(response.status).toBe(400);
    expect(errorOf(response)).toMatchObject({ code: 'INVALID_REQUEST', message: 'The request body is not valid UTF-8' });
  });

  it('still accepts valid UTF-8 text of any script', async () => {
    const response = await send(createTask(JSON.stringify({ task_type: 'summarize', input: { text: TEXT } })));
    expect(response.status).toBe(202);
  });

  it('still refuses __proto__ keys', async () => {
    const response = await send(createTask('{"task_type":"summarize","input":{"text":"x"},"__proto__":{"admin":true}}'));
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('INVALID_REQUEST');
  });
});

describe('requests Node refuses before the application sees them carry the error body', () => {
  it('answers a header with a control character with 400 and the error body', async () => {
    const response = await send(createTask('{}', [['X-Odd', Buffer.from([0x61, 0x01, 0x62])]]));
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('INVALID_REQUEST');
  });

  it('answers headers over the size limit with 431 and the error body', async () => {
    const response = await send(createTask('{}', [['X-Padding', 'p'.repeat(20_000)]]));
    expect(response.status).toBe(431);
    expect(errorOf(response).code).toBe('INVALID_REQUEST');
  });

  it('answers an Expect header other than 100-continue with 417 and the error body', async () => {
    const response = await send(createTask(JSON.stringify({ task_type: 'summarize', input: { text: TEXT } }), [['Expect', 'foo']]));
    expect(response.status).toBe(417);
    expect(errorOf(response).code).toBe('INVALID_REQUEST');
  });
});

describe('paths the router cannot use carry the error body', () => {
  it('answers a path with broken percent-encoding with 400', async () => {
    const response = await send({ method: 'GET', target: '/v1/ai/tasks/%zz', headers: [['Authorization', `Bearer ${service().key}`]] });
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('INVALID_REQUEST');
  });

  it('answers an id longer than any id with 414', async () => {
    const response = await send({ method: 'GET', target: `/v1/ai/tasks/task_${'Z'.repeat(200)}`, headers: [['Authorization', `Bearer ${service().key}`]] });
    expect(response.status).toBe(414);
    expect(errorOf(response).code).toBe('INVALID_REQUEST');
  });
});

describe('Idempotency-Key must be sent once', () => {
  it('refuses two Idempotency-Key headers instead of joining them into a third key', async () => {
    const body = JSON.stringify({ task_type: 'summarize', input: { text: TEXT } });
    const response = await send(createTask(body, [['Idempotency-Key', randomUUID()], ['Idempotency-Key', randomUUID()]]));
    expect(response.status).toBe(400);
    expect(errorOf(response)).toMatchObject({ code: 'INVALID_REQUEST', message: 'Send one Idempotency-Key header, not several' });
  });
});
