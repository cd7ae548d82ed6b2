import type { ApiOperation, ParameterDoc, ResponseDoc } from './api-operation';
import { PREFER_WAIT_FOR_CHANGE_HEADER, WAIT_ANSWER_HEADERS } from './common-parameters';

/** What an operation on one resource by its id declares of its own. */
export type OneResourceOperation = Omit<ApiOperation, 'pathParameters' | 'headers' | 'responses' | 'errors'> & {
  id: ParameterDoc;
  /** Its 200 answer: the resource. */
  answer: Omit<ResponseDoc, 'status' | 'headers'>;
  /** A GET that `Prefer: wait` holds until the resource changes. */
  waitsForChange?: boolean;
};

/**
 * An operation on one of the caller's resources by its id that answers the resource: 404 where
 * the caller has none by that id, 503 when it cannot be read now, ENCRYPTION_REQUIRED where its
 * environment's data may not be served in plaintext.
 */
export function oneResourceOperation({ id, answer, waitsForChange, ...operation }: OneResourceOperation): ApiOperation {
  return {
    ...operation,
    pathParameters: [id],
    ...(waitsForChange ? { headers: [PREFER_WAIT_FOR_CHANGE_HEADER] } : {}),
    responses: [{ status: 200, ...answer, ...(waitsForChange ? { headers: WAIT_ANSWER_HEADERS } : {}) }],
    errors: ['NOT_FOUND', 'SERVICE_UNAVAILABLE', 'ENCRYPTION_REQUIRED'],
  };
}
