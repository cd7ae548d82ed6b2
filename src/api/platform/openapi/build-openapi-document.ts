import type { ErrorCode } from '../http/api-error';
import { refusedWithoutEncryption } from '../http/encryption-required.guard';
import type { ApiOperation, ApiTag, NamedSchema, ParameterDoc, ResponseDoc } from './api-operation';
import { BODY_ERRORS, ERROR_CATALOG, HTTP_LAYER_ERRORS, type StatusError } from './error-catalog';
import { componentRef, componentSchemas, inlineSchema, type JsonSchema } from './json-schema';
import { errorBodySchema } from '../../../contract/wire';

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  tags: ApiTag[];
  security: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, JsonSchema>>;
  webhooks: Record<string, Record<string, JsonSchema>>;
  components: { securitySchemes: Record<string, JsonSchema>; schemas: Record<string, JsonSchema>; responses: Record<string, JsonSchema> };
}

/** What the document shows of the webhooks the service sends: their bodies' schemas and the OpenAPI 3.1 `webhooks` section. */
export interface DocumentWebhooks {
  payloads: NamedSchema[];
  objects: Record<string, Record<string, JsonSchema>>;
}

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
}

const SECURITY_SCHEME = 'apiKey';
const REVIEWER_SECURITY_SCHEME = 'reviewerCredential';
const ERROR_BODY: NamedSchema = { name: 'ErrorBody', schema: errorBodySchema };
const RETRY_AFTER_STATUSES = new Set([429, 503]);

/** The OpenAPI 3.1 document of the given operations; every schema in it comes from zod. */
export function buildOpenApiDocument(operations: ApiOperation[], tags: ApiTag[], info: DocumentInfo, webhooks: DocumentWebhooks): OpenApiDocument {
  const requestSchemas = uniqueSchemas(operations.flatMap((operation) => (operation.requestBody ? [operation.requestBody] : [])));
  const responseSchemas = uniqueSchemas([
    ERROR_BODY,
    ...operations.flatMap((operation) => operation.responses.flatMap((response) => (response.body ? [response.body] : []))),
    ...webhooks.payloads,
  ]);
  const paths: OpenApiDocument['paths'] = {};
  // Grouped by tag in the tags' order, whatever order the controllers were found in.
  const tagOrder = (operation: ApiOperation) => tags.findIndex((tag) => tag.name === operation.tag);
  for (const operation of [...operations].sort((a, b) => tagOrder(a) - tagOrder(b))) {
    paths[operation.path] ??= {};
    paths[operation.path][operation.method] = operationObject(operation);
  }
  return {
    openapi: '3.1.0',
    info,
    tags,
    security: [{ [SECURITY_SCHEME]: [] }],
    paths,
    webhooks: webhooks.objects,
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key: `<brand>_test_…` works in the sandbox, `<brand>_live_…` in production. Never put one in front-end code.',
        },
        [REVIEWER_SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description: 'A reviewer credential from `assay reviewers add`: `<brand>_rvw_test_…` reviews sandbox assessments, `<brand>_rvw_live_…` production ones. Only the review operations take it.',
        },
      },
      schemas: { ...componentSchemas(requestSchemas, 'input'), ...componentSchemas(responseSchemas, 'output') },
      // Answers to a method no operation has, on any path: they cannot sit under an operation.
      responses: {
        MethodNotAllowed: {
          ...errorResponse(405, [statusError('METHOD_NOT_ALLOWED')]),
          headers: { Allow: { description: "The path's methods, e.g. `GET, HEAD`.", schema: { type: 'string' } } },
        },
        NotImplemented: errorResponse(501, [statusError('NOT_IMPLEMENTED')]),
      },
    },
  };
}

/**
 * Every error an operation can answer with, in status order: its own codes, UNAUTHORIZED and
 * FORBIDDEN (the other kind of credential), RATE_LIMITED (too many failed credentials from the
 * client) and SERVICE_UNAVAILABLE (the credential is looked up in the database) unless public,
 * ENCRYPTION_REQUIRED where production data is refused without keys (review operations included),
 * INTERNAL, what the HTTP layer answers to any request, and, except for GET (whose body
 * Fastify never reads), what a body can cause.
 */
export function operationErrors(operation: ApiOperation): StatusError[] {
  const codes = new Set<ErrorCode>(operation.errors);
  if (!operation.public) {
    codes.add('UNAUTHORIZED');
    codes.add('FORBIDDEN');
    codes.add('RATE_LIMITED');
    codes.add('SERVICE_UNAVAILABLE');
  }
  if (refusedWithoutEncryption(operation)) codes.add('ENCRYPTION_REQUIRED');
  codes.add('INTERNAL');
  return [...[...codes].map(statusError), ...HTTP_LAYER_ERRORS, ...(operation.method === 'get' ? [] : BODY_ERRORS)].sort((a, b) => a.status - b.status);
}

function statusError(code: ErrorCode): StatusError {
  return { code, ...ERROR_CATALOG[code] };
}

function operationObject(operation: ApiOperation): JsonSchema {
  const object: JsonSchema = {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    ...(operation.public ? { security: [] } : {}),
    ...(operation.reviewer ? { security: [{ [REVIEWER_SECURITY_SCHEME]: [] }] } : {}),
  };
  const parameters = [
    ...(operation.pathParameters ?? []).map((parameter) => parameterObject(parameter, 'path')),
    ...queryParameters(operation),
    ...(operation.headers ?? []).map((parameter) => parameterObject(parameter, 'header')),
  ];
  if (parameters.length > 0) object.parameters = parameters;
  if (operation.requestBody) {
    object.requestBody = {
      required: true,
      content: { 'application/json': { schema: componentRef(operation.requestBody.name), example: operation.requestBody.example } },
    };
  }
  object.responses = { ...successResponses(operation.responses), ...errorResponses(operationErrors(operation)) };
  return object;
}

function parameterObject(parameter: ParameterDoc, location: 'path' | 'header'): JsonSchema {
  return {
    name: parameter.name,
    in: location,
    required: location === 'path' || parameter.required === true,
    description: parameter.description,
    schema: parameter.schema ? inlineSchema(parameter.schema) : { type: 'string' },
    ...(parameter.example !== undefined ? { example: parameter.example } : {}),
  };
}

function queryParameters(operation: ApiOperation): JsonSchema[] {
  if (!operation.query) return [];
  const object = inlineSchema(operation.query);
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...schema } = property;
    return { name, in: 'query', required: required.has(name), ...(description ? { description } : {}), schema };
  });
}

function successResponses(responses: ResponseDoc[]): Record<string, JsonSchema> {
  const result: Record<string, JsonSchema> = {};
  for (const response of responses) {
    const object: JsonSchema = { description: response.description };
    if (response.headers) {
      object.headers = Object.fromEntries(
        Object.entries(response.headers).map(([name, header]) => [name, { description: header.description, schema: header.schema ? inlineSchema(header.schema) : { type: 'string' } }]),
      );
    }
    if (response.body) {
      object.content = { 'application/json': { schema: componentRef(response.body.name), ...(response.example !== undefined ? { example: response.example } : {}) } };
    } else if (response.media) {
      object.content = { [response.media.contentType]: { schema: { type: 'string', description: response.media.description } } };
    }
    result[String(response.status)] = object;
  }
  return result;
}

function errorResponses(errors: StatusError[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, StatusError[]>();
  for (const error of errors) byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  return Object.fromEntries([...byStatus].map(([status, statusErrors]) => [String(status), errorResponse(status, statusErrors)]));
}

/** One status's response: each code once, with every reason it has at this status. */
function errorResponse(status: number, errors: StatusError[]): JsonSchema {
  const meanings = new Map<ErrorCode, string[]>();
  for (const { code, meaning } of errors) meanings.set(code, [...(meanings.get(code) ?? []), meaning]);
  return {
    description: [...meanings].map(([code, reasons]) => `${code}: ${reasons.join(' ')}`).join(' '),
    ...(RETRY_AFTER_STATUSES.has(status) ? { headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } } } : {}),
    content: {
      'application/json': {
        schema: componentRef(ERROR_BODY.name),
        examples: Object.fromEntries(
          [...meanings].map(([code, reasons]) => [code, { summary: code, value: { error: { code, message: reasons[0], request_id: 'req_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0' } } }]),
        ),
      },
    },
  };
}

/** Named schemas once each; one name for two different schemas is a mistake in the descriptors. */
function uniqueSchemas(named: NamedSchema[]): NamedSchema[] {
  const byName = new Map<string, NamedSchema>();
  for (const entry of named) {
    const known = byName.get(entry.name);
    if (known && known.schema !== entry.schema) throw new Error(`Two different schemas are both named ${entry.name} in the API operations`);
    byName.set(entry.name, entry);
  }
  return [...byName.values()];
}
