import type { ErrorCode } from '../http/api-error';
import type { ApiOperation, ApiTag, NamedSchema, ParameterDoc, ResponseDoc } from './api-operation';
import { ERROR_CATALOG } from './error-catalog';
import { componentRef, componentSchemas, inlineSchema, type JsonSchema } from './json-schema';
import { errorBodySchema } from './schemas/common.schemas';

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  tags: ApiTag[];
  security: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, JsonSchema>>;
  components: { securitySchemes: Record<string, JsonSchema>; schemas: Record<string, JsonSchema> };
}

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
}

const SECURITY_SCHEME = 'apiKey';
const ERROR_BODY: NamedSchema = { name: 'ErrorBody', schema: errorBodySchema };
const RETRY_AFTER_STATUSES = new Set([429, 503]);

/** The OpenAPI 3.1 document of the given operations; every schema in it comes from zod. */
export function buildOpenApiDocument(operations: ApiOperation[], tags: ApiTag[], info: DocumentInfo): OpenApiDocument {
  const requestSchemas = uniqueSchemas(operations.flatMap((operation) => (operation.requestBody ? [operation.requestBody] : [])));
  const responseSchemas = uniqueSchemas([ERROR_BODY, ...operations.flatMap((operation) => operation.responses.flatMap((response) => (response.body ? [response.body] : [])))]);
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
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key: `<brand>_test_…` works in the sandbox, `<brand>_live_…` in production. Never put one in front-end code.',
        },
      },
      schemas: { ...componentSchemas(requestSchemas, 'input'), ...componentSchemas(responseSchemas, 'output') },
    },
  };
}

/** Every error code an operation can answer with, in status order. */
export function operationErrors(operation: ApiOperation): ErrorCode[] {
  const codes = new Set<ErrorCode>(operation.errors);
  if (!operation.public) codes.add('UNAUTHORIZED');
  codes.add('INTERNAL');
  return [...codes].sort((a, b) => ERROR_CATALOG[a].status - ERROR_CATALOG[b].status);
}

function operationObject(operation: ApiOperation): JsonSchema {
  const object: JsonSchema = {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    ...(operation.public ? { security: [] } : {}),
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

function errorResponses(codes: ErrorCode[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_CATALOG[code].status, [...(byStatus.get(ERROR_CATALOG[code].status) ?? []), code]);
  const result: Record<string, JsonSchema> = {};
  for (const [status, statusCodes] of byStatus) {
    result[String(status)] = {
      description: statusCodes.map((code) => `${code}: ${ERROR_CATALOG[code].meaning}`).join(' '),
      ...(RETRY_AFTER_STATUSES.has(status) ? { headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } } } : {}),
      content: {
        'application/json': {
          schema: componentRef(ERROR_BODY.name),
          examples: Object.fromEntries(
            statusCodes.map((code) => [code, { summary: code, value: { error: { code, message: ERROR_CATALOG[code].meaning, request_id: 'req_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0' } } }]),
          ),
        },
      },
    };
  }
  return result;
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
