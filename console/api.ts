// The console's one way to the API: same origin, the HttpOnly session cookie, and the CSRF token
// (held in memory only) on every change.

export interface ConsoleIdentity {
  kind: 'customer' | 'reviewer';
  organization_id?: string;
  name?: string;
  environment: 'test' | 'live';
  csrf_token: string;
}

/** The API refused: its error body's code and message, shown as they are. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken = '';

export function rememberCsrfToken(token: string): void {
  csrfToken = token;
}

export async function request<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ApiFailure(response.status, error?.code ?? 'UNEXPECTED_RESPONSE', error?.message ?? `HTTP ${response.status}`);
  }
  return parsed as T;
}

export async function signIn(credential: string): Promise<ConsoleIdentity> {
  const identity = await request<ConsoleIdentity>('POST', '/console/session', { credential });
  rememberCsrfToken(identity.csrf_token);
  return identity;
}

/** The session the cookie holds, if any (a reload keeps it; the CSRF token is renewed). */
export async function currentSession(): Promise<ConsoleIdentity | undefined> {
  const identity = await request<ConsoleIdentity | undefined>('GET', '/console/session');
  if (identity) rememberCsrfToken(identity.csrf_token);
  return identity;
}

export async function signOut(): Promise<void> {
  await request<void>('DELETE', '/console/session');
  rememberCsrfToken('');
}

export function describeFailure(error: unknown): string {
  if (error instanceof ApiFailure) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
