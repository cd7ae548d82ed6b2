import { AssayApiError } from './errors';
import type { HttpResponse } from './http-transport';
import type { ListPage } from './resources';

/** The query string of a list request (its filters are strings, numbers and booleans); undefined filters are left out rather than sent empty. */
export function listQueryString(query: object): string {
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query) as Array<[string, string | number | boolean | undefined]>) {
    if (value !== undefined) parameters.set(name, String(value));
  }
  const text = parameters.toString();
  return text === '' ? '' : `?${text}`;
}

/** The body as a page whose items each pass `item` (a guard of one resource), checked as far as the client relies on it. */
export function listPageFrom<T>(response: HttpResponse, item: (itemResponse: HttpResponse) => T): ListPage<T> {
  const body = response.body as Partial<ListPage<unknown>> | undefined;
  const valid = Array.isArray(body?.data) && typeof body.has_more === 'boolean' && (typeof body.next_cursor === 'string' || body.next_cursor === null);
  if (!valid) {
    throw new AssayApiError({
      status: response.status,
      code: 'UNEXPECTED_RESPONSE',
      message: 'The response body is not a list page',
      request_id: response.headers.get('x-request-id') ?? undefined,
    });
  }
  return { data: body.data!.map((element) => item({ ...response, body: element })), has_more: body.has_more!, next_cursor: body.next_cursor! };
}

/**
 * Every page from the first, following next_cursor until has_more is false. The filters stay as
 * given, as the service requires for a cursor; a `cursor` in them starts from that page.
 */
export async function* followPages<T, Q extends { cursor?: string }>(query: Q, fetchPage: (query: Q) => Promise<ListPage<T>>): AsyncGenerator<ListPage<T>, void, undefined> {
  let page = await fetchPage(query);
  yield page;
  while (page.has_more && page.next_cursor !== null) {
    page = await fetchPage({ ...query, cursor: page.next_cursor });
    yield page;
  }
}
