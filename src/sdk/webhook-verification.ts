// Verifies a webhook from Assay (Standard Webhooks). WebCrypto only, so it runs in Node 20,
// browsers, Deno and edge runtimes alike.

import { AssayError } from './errors';
import type { WebhookEventType } from './resources';

const SECRET_PREFIX = 'whsec_';
const DEFAULT_TOLERANCE_SECONDS = 300;

/** The event Assay sent: `data` is the resource exactly as GET returns it. */
export interface WebhookEvent<T = unknown> {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: T;
}

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, either way (default 300). Bounds replays of a captured request. */
  toleranceSeconds?: number;
  /** Seconds since the epoch; for tests. */
  nowSeconds?: number;
}

/** Header bags as Node (`req.headers`), fetch (`Headers`) or a plain object give them; names are case-insensitive. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** The request is not a genuine, fresh webhook from Assay: answer 400 and do not act on it. */
export class WebhookVerificationError extends AssayError {
  override name = 'WebhookVerificationError';
}

/**
 * Checks the `webhook-signature` of a request against the endpoint's secret and returns the
 * parsed event. Pass the body exactly as received (before any JSON parsing). During a secret
 * rotation the header carries several signatures; any one matching is enough.
 */
export async function verifyWebhook<T = unknown>(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent<T>> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('Invalid webhook-timestamp');
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - Number(timestamp)) > tolerance) throw new WebhookVerificationError('The webhook-timestamp is too old or too far in the future');

  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  const expected = await hmacBase64(secretKey(secret), `${id}.${timestamp}.${body}`);
  const matches = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .some((entry) => constantTimeEqual(entry.slice(3), expected));
  if (!matches) throw new WebhookVerificationError('No signature matches this secret');
  return JSON.parse(body) as WebhookEvent<T>;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value[0] : value;
}

function secretKey(secret: string): Uint8Array<ArrayBuffer> {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  try {
    return Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0));
  } catch {
    throw new WebhookVerificationError('The secret is not a whsec_… secret');
  }
}

async function hmacBase64(key: Uint8Array<ArrayBuffer>, message: string): Promise<string> {
  const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, new TextEncoder().encode(message)));
  return btoa(String.fromCharCode(...signature));
}

/** Takes the same time wherever the strings differ, so timing reveals nothing of the expected signature. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
