import type { RawResponse } from './raw-http';

/** The error of a raw response, checked to be the one error body every non-2xx carries, with its request id in X-Request-Id. */
export function errorOf(response: RawResponse): { code: string; message: string; request_id: string } {
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const { error } = JSON.parse(response.body.toString('utf8'));
  expect(error.request_id).toMatch(/^req_/);
  expect(response.headers['x-request-id']).toBe(error.request_id);
  return error;
}
