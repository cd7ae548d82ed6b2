import type { RawResponse } from '../../test/support/raw-http';

/**
 * What is wrong with the API's answer to a bad request, or undefined when it is right: a 4xx
 * with the one error body (docs/api.md, Errors: every non-2xx has it), its request id also in X-Request-Id.
 */
export function errorAnswerProblem(response: RawResponse, method: string): string | undefined {
  if (response.status >= 500) return `answered ${response.status}`;
  if (response.status < 400) return `accepted a bad request with ${response.status}`;
  if (method === 'HEAD') return undefined;
  if (!/^application\/json\b/.test(response.headers['content-type'] ?? '')) return `${response.status} with Content-Type ${response.headers['content-type'] ?? 'none'}`;
  let body: { error?: { code?: unknown; message?: unknown; request_id?: unknown } };
  try {
    body = JSON.parse(response.body.toString('utf8')) as typeof body;
  } catch {
    return `${response.status} with a body that is not JSON`;
  }
  const error = body.error;
  const wellFormed = typeof error?.code === 'string' && /^[A-Z_]+$/.test(error.code) && typeof error.message === 'string' && error.message.length > 0;
  if (!wellFormed || typeof error?.request_id !== 'string' || !error.request_id.startsWith('req_')) {
    return `${response.status} without the error body: ${response.body.toString('utf8').slice(0, 200)}`;
  }
  if (response.headers['x-request-id'] !== error.request_id) return `${response.status} whose X-Request-Id is not the body's request_id`;
  return undefined;
}
