import type { ApiOperation } from '../../src/api/platform/openapi/api-operation';
import { bearer, http, type HttpResult } from './http';

export interface OperationCredentials {
  /** A customer API key, for the customer operations. */
  key: string;
  /** A reviewer credential, for the review operations. */
  reviewer: string;
  /** A console session cookie (`name=value`), sent on the public operations: the console's session ones read it. */
  cookie?: string;
}

/** What a test gives instead of the documented examples. */
export interface OperationInputs {
  /** Path parameters by name, e.g. `endpoint_id`. */
  ids?: Record<string, string>;
  /** Request bodies by operation name. */
  bodies?: Record<string, unknown>;
}

/** "GET /v1/ai/tasks/{task_id}": how a test names an operation. */
export function operationName(operation: ApiOperation): string {
  return `${operation.method.toUpperCase()} ${operation.path}`;
}

/**
 * Sends the operation as a well-behaved client would: its path parameters and body as given, else
 * the documented examples, and the credential the operation takes. Tests that walk every operation
 * use it, so an operation added later is walked too.
 */
export function sendOperation(baseUrl: string, operation: ApiOperation, credentials: OperationCredentials, inputs: OperationInputs = {}): Promise<HttpResult> {
  const name = operationName(operation);
  let path = operation.path;
  for (const parameter of operation.pathParameters ?? []) {
    const value = inputs.ids?.[parameter.name] ?? parameter.example;
    if (value === undefined) throw new Error(`${name}: no value for {${parameter.name}}`);
    path = path.replace(`{${parameter.name}}`, encodeURIComponent(value));
  }
  const credential = operation.public ? undefined : operation.reviewer ? credentials.reviewer : credentials.key;
  const headers: Record<string, string> = credential ? bearer(credential) : credentials.cookie ? { cookie: credentials.cookie } : {};
  const body = inputs.bodies && name in inputs.bodies ? inputs.bodies[name] : operation.requestBody?.example;
  return http(`${baseUrl}${path}`, { method: operation.method.toUpperCase(), headers, json: body });
}

/** An operation's answer, and how long it took to come: what a test of the API's deadlines bounds. */
export type TimedAnswer = HttpResult & { elapsedMs: number };

/**
 * Sends each operation once and answers by operation name. Deletes go last, one at a time, so
 * none takes away what another operation was given to act on.
 */
export async function sendEveryOperation(
  baseUrl: string,
  operations: readonly ApiOperation[],
  credentials: OperationCredentials,
  inputs: OperationInputs = {},
): Promise<Map<string, TimedAnswer>> {
  const answers = new Map<string, TimedAnswer>();
  const send = async (operation: ApiOperation) => {
    const sentAt = Date.now();
    const answer = await sendOperation(baseUrl, operation, credentials, inputs);
    answers.set(operationName(operation), { ...answer, elapsedMs: Date.now() - sentAt });
  };
  await Promise.all(operations.filter((operation) => operation.method !== 'delete').map(send));
  for (const operation of operations.filter((candidate) => candidate.method === 'delete')) await send(operation);
  return answers;
}
