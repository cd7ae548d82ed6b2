import Ajv2020 from 'ajv/dist/2020';
import { IDEMPOTENCY_KEY_PATTERN, parseIdempotencyKey } from '../../../../../src/api/platform/http/idempotency-key';
import { API_TAGS } from '../../../../../src/api/platform/openapi/api-tags';
import { buildOpenApiDocument } from '../../../../../src/api/platform/openapi/build-openapi-document';
import { documentInfo } from '../../../../../src/api/platform/openapi/document-info';
import { withOfferedModels } from '../../../../../src/api/platform/openapi/offered-models';
import { parseCreateTaskRequest } from '../../../../../src/api/tasks/create-task.request';
import { AppConfig } from '../../../../../src/common/config/app-config';
import { API_OPERATIONS } from '../../../../support/api-operations';
import { WEBHOOKS_DOC } from '../../../../../src/api/webhooks/webhook-events';

// The document must refuse exactly what validation refuses: a fuzzer generating from it found
// blank text, unknown task types, bad Idempotency-Keys and malformed ids documented as valid.

const models = new AppConfig({ ASSAY_MODELS: JSON.stringify([{ name: 'smollm2', base_url: 'http://127.0.0.1:8081/v1', context_tokens: 2048 }]) }).models;
// As the API serves it: listing this deployment's models.
const document = withOfferedModels(buildOpenApiDocument(API_OPERATIONS, API_TAGS, documentInfo(), WEBHOOKS_DOC), models.names) as any;
const DOCUMENT_ID = 'https://assay.test/openapi.json';
const ajv = new Ajv2020({ strict: false, validateFormats: false });
ajv.addSchema(document, DOCUMENT_ID);

function component(name: string) {
  const validate = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`);
  if (!validate) throw new Error(`no component ${name}`);
  return validate;
}

function parameter(method: string, path: string, name: string): any {
  const found = document.paths[path][method].parameters.find((candidate: any) => candidate.name === name);
  if (!found) throw new Error(`${method} ${path} has no parameter ${name}`);
  return found;
}

/** Whether validation lets the value through, whatever it makes of it. */
function passes(validate: () => unknown): boolean {
  try {
    validate();
    return true;
  } catch {
    return false;
  }
}

describe('the create-task body is documented as strictly as it is validated', () => {
  const createTask = component('CreateTaskRequest');
  const body = (text: string, taskType = 'summarize') => ({ task_type: taskType, input: { text } });

  it.each([' ', '\t\n', '\u00a0\u2003', '\ufeff', '\u3000 '])('refuses blank text %j in both', (text) => {
    expect(createTask(body(text))).toBe(false);
    expect(passes(() => parseCreateTaskRequest(body(text), 1000, models))).toBe(false);
  });

  it.each(['a', ' a ', 'line one\r\n\tline two', '漢'])('accepts text %j in both', (text) => {
    expect(createTask(body(text))).toBe(true);
    expect(passes(() => parseCreateTaskRequest(body(text), 1000, models))).toBe(true);
  });

  it.each(['a\u0000', '\u001c', 'a\u001b[31m', 'a\u007f', 'a\u0085', 'a\fb'])('refuses text with the control character in %j in both', (text) => {
    expect(createTask(body(text))).toBe(false);
    expect(passes(() => parseCreateTaskRequest(body(text), 1000, models))).toBe(false);
  });

  it('documents task_type as the enum of supported types, still answered with UNSUPPORTED_TASK_TYPE', () => {
    expect(document.components.schemas.CreateTaskRequest.properties.task_type.enum).toEqual(['summarize']);
    expect(createTask(body('x', 'translate'))).toBe(false);
    expect(() => parseCreateTaskRequest(body('x', 'translate'), 1000, models)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_TASK_TYPE' }));
    expect(() => parseCreateTaskRequest(body(' ', 'translate'), 1000, models)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
    expect(() => parseCreateTaskRequest({ task_type: 7, input: { text: 'x' } }, 1000, models)).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', message: 'task_type: required, a string such as "summarize"' }),
    );
  });
});

describe('the model of a create', () => {
  const createTask = component('CreateTaskRequest');
  const body = (model: unknown) => ({ task_type: 'summarize', model, input: { text: 'Some text.' } });

  it.each(['extractive', 'smollm2'])('accepts the offered model %j in both', (model) => {
    expect(createTask(body(model))).toBe(true);
    expect(parseCreateTaskRequest(body(model), 1000, models).model.name).toBe(model);
  });

  it('answers a well-formed name it does not offer with UNKNOWN_MODEL, naming the models it has; the document lists only those', () => {
    expect(document.components.schemas.CreateTaskRequest.properties.model.enum).toEqual(['extractive', 'smollm2']);
    expect(createTask(body('gpt-9'))).toBe(false);
    expect(() => parseCreateTaskRequest(body('gpt-9'), 1000, models)).toThrow(
      expect.objectContaining({ status: 400, code: 'UNKNOWN_MODEL', message: 'model "gpt-9" is not offered; use one of: extractive, smollm2' }),
    );
  });

  it("lists the same offered models on a batch's create, which a fuzzer found answered UNKNOWN_MODEL for a schema-valid name", () => {
    const createBatch = component('CreateBatchRequest');
    const batch = (model: unknown) => ({ task_type: 'summarize', model, items: [{ key: 'a', input: { text: 'Some text.' } }] });
    expect(document.components.schemas.CreateBatchRequest.properties.model.enum).toEqual(['extractive', 'smollm2']);
    expect(createBatch(batch('smollm2'))).toBe(true);
    expect(createBatch(batch('IyX'))).toBe(false);
  });

  it.each([7, '', ' smollm2', 'a b'])('refuses the malformed model %j in both', (model) => {
    expect(createTask(body(model))).toBe(false);
    expect(() => parseCreateTaskRequest(body(model), 1000, models)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });

  it('runs a create that names no model on the default, and keeps it out of the request hashed for idempotency', () => {
    const parsed = parseCreateTaskRequest({ task_type: 'summarize', input: { text: 'Some text.' } }, 1000, models);
    expect(parsed.model).toEqual({ name: 'extractive', kind: 'extractive' });
    expect(parsed.request).toEqual({ task_type: 'summarize', input: { text: 'Some text.' } });
  });
});

describe('the Idempotency-Key header', () => {
  const pattern = new RegExp(IDEMPOTENCY_KEY_PATTERN);
  const valid = (value: string) => passes(() => parseIdempotencyKey(value));

  it('is documented with the pattern the parser applies', () => {
    expect(parameter('post', '/v1/ai/tasks', 'Idempotency-Key').schema).toEqual({ type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN });
    expect(parameter('post', '/v1/network-assessments', 'Idempotency-Key').schema.pattern).toBe(IDEMPOTENCY_KEY_PATTERN);
  });

  // The rule as it was written before the pattern existed: a quoted key is read without its quotes.
  const rule = (header: string) => {
    const key = header.length >= 2 && header.startsWith('"') && header.endsWith('"') ? header.slice(1, -1) : header;
    return key.length >= 1 && key.length <= 255 && /^[\x21-\x7e][\x20-\x7e]*$/.test(key);
  };

  it.each(['', '"', '""', '" a"', '"a"', '"a', 'a"', '""a"', '"a""', ' a', 'k'.repeat(255), 'k'.repeat(256), `"${'k'.repeat(255)}"`, `"${'k'.repeat(256)}"`, 'é', 'a\tb'])(
    'accepts %j exactly when the rule does',
    (value) => {
      expect([pattern.test(value), valid(value)]).toEqual([rule(value), rule(value)]);
    },
  );

  it('agrees with the rule on random values', () => {
    const alphabet = ['"', ' ', 'a', '~', '\t', 'é'];
    for (let i = 0; i < 5000; i++) {
      const length = Math.floor(Math.random() * 6);
      const value = Array.from({ length }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
      expect([value, pattern.test(value)]).toEqual([value, rule(value)]);
    }
  });
});

describe('ids and URLs', () => {
  it.each([
    ['get', '/v1/ai/tasks/{task_id}', 'task_id', 'task_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0', 'task_81JB8ZK6Q5T3W0V9X2Y4Z6A8C0'],
    ['post', '/v1/ai/tasks/{task_id}/cancel', 'task_id', 'task_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0', 'task_01JB8ZK6Q5T3W0V9X2Y4Z6A8CU'],
    ['get', '/v1/network-assessments/{assessment_id}', 'assessment_id', 'asmt_01JB8ZM2D7E9F1G3H5J7K9M1N3', 'asmt_01JB8ZM2D7E9F1G3H5J7K9M1N'],
    ['delete', '/v1/webhook-endpoints/{endpoint_id}', 'endpoint_id', 'we_01JB8ZP0A1B2C3D4E5F6G7H8J9', 'whe_01JB8ZP0A1B2C3D4E5F6G7H8J9'],
  ])('%s %s documents %s as a ULID-shaped id', (method, path, name, good, bad) => {
    const pattern = new RegExp(parameter(method, path, name).schema.pattern);
    expect([pattern.test(good), pattern.test(bad)]).toEqual([true, false]);
  });

  it('documents a webhook url as a URI', () => {
    const url = document.components.schemas.CreateWebhookEndpointRequest.properties.url;
    expect(url).toMatchObject({ type: 'string', format: 'uri', maxLength: 2048 });
    const create = component('CreateWebhookEndpointRequest');
    expect(create({ url: 'not a url', events: ['ai_task.completed'] })).toBe(false);
    expect(create({ url: 'https://example.com/hooks?x=1', events: ['ai_task.completed'] })).toBe(true);
  });
});

describe('statuses the API sends', () => {
  it('documents what the HTTP layer can answer on every operation, with the error body', () => {
    for (const [path, methods] of Object.entries(document.paths) as Array<[string, any]>) {
      for (const [method, operation] of Object.entries(methods) as Array<[string, any]>) {
        const statuses = ['400', '408', '414', '417', '431', '500', '503', ...(method === 'get' ? [] : ['413', '415'])];
        for (const status of statuses) {
          expect([method, path, status, operation.responses[status]?.content['application/json'].schema]).toEqual([method, path, status, { $ref: '#/components/schemas/ErrorBody' }]);
        }
      }
    }
  });

  it('documents 405 with Allow and 501, which answer methods no operation has', () => {
    expect(document.components.responses.MethodNotAllowed.headers).toHaveProperty(['Allow']);
    expect(Object.keys(document.components.responses.MethodNotAllowed.content['application/json'].examples)).toEqual(['METHOD_NOT_ALLOWED']);
    expect(Object.keys(document.components.responses.NotImplemented.content['application/json'].examples)).toEqual(['NOT_IMPLEMENTED']);
  });
});

describe('webhooks', () => {
  it.each([
    ['ai_task.completed', 'AiTaskCompletedEvent', 'Task'],
    ['assessment.reviewed', 'AssessmentReviewedEvent', 'Assessment'],
  ])('documents the %s payload and its Standard Webhooks signature headers', (type, payload, resource) => {
    const post = document.webhooks[type].post;
    expect(post.parameters.map((header: any) => [header.name, header.in, header.required])).toEqual([
      ['webhook-id', 'header', true],
      ['webhook-timestamp', 'header', true],
      ['webhook-signature', 'header', true],
    ]);
    expect(post.requestBody.content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${payload}` });
    expect(document.components.schemas[payload].properties.data).toEqual({ $ref: `#/components/schemas/${resource}` });
    expect(document.components.schemas[payload].properties.type).toMatchObject({ const: type });
  });
});
