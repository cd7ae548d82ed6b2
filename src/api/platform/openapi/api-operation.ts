import type { z } from 'zod';
import type { ErrorCode } from '../http/api-error';

/** A zod schema published under a name in components.schemas. */
export interface NamedSchema {
  name: string;
  schema: z.ZodType;
}

export interface ParameterDoc {
  name: string;
  description: string;
  required?: boolean;
  /** Defaults to a plain string. */
  schema?: z.ZodType;
  example?: string;
}

export interface HeaderDoc {
  description: string;
  schema?: z.ZodType;
}

export interface ResponseDoc {
  status: number;
  description: string;
  body?: NamedSchema;
  /** A body that is not JSON (HTML, Prometheus text). */
  media?: { contentType: string; description: string };
  example?: unknown;
  headers?: Record<string, HeaderDoc>;
}

/**
 * One HTTP operation, declared once in its feature's *.routes.ts: the controller serves it with
 * @ApiRoute (src/api/platform/http/api-route.ts), and the OpenAPI document, /docs and the 405 Allow header
 * are built from the operations the controllers carry. The first response is the status the
 * route answers with unless the handler sets another.
 */
export interface ApiOperation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form, e.g. /v1/ai/tasks/{task_id}. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** Served without an API key (health, metrics, docs). */
  public?: boolean;
  /** Served to a reviewer credential (`assay reviewers add`) instead of a customer's API key. */
  reviewer?: boolean;
  pathParameters?: ParameterDoc[];
  /** Each property becomes one query parameter. */
  query?: z.ZodObject;
  headers?: ParameterDoc[];
  requestBody?: NamedSchema & { example: unknown };
  responses: ResponseDoc[];
  /** Its error codes; UNAUTHORIZED, FORBIDDEN, RATE_LIMITED and SERVICE_UNAVAILABLE (unless public) and INTERNAL are added for every operation. */
  errors: ErrorCode[];
}

export interface ApiTag {
  name: string;
  description: string;
}
