export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A plain fetch that returns the parsed body alongside status and headers, for assertions. */
export async function http<T = any>(url: string, init: RequestInit & { json?: unknown } = {}): Promise<HttpResult<T>> {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  const response = await fetch(url, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Left as text: the assertion will show what came back.
  }
  return { status: response.status, headers: response.headers, body: body as T };
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}
