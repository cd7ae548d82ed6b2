import { createHash, randomBytes } from 'node:crypto';

export const KEY_ENVIRONMENTS = ['test', 'live'] as const;
export type KeyEnvironment = (typeof KEY_ENVIRONMENTS)[number];

const SECRET_BYTES = 24;
const VISIBLE_SECRET_CHARS = 6;
const KEY_SHAPE = /^([a-z][a-z0-9]{1,15})_(test|live)_([A-Za-z0-9_-]{32})$/;

export interface ParsedApiKey {
  brand: string;
  environment: KeyEnvironment;
}

/** A new key: `<brand>_<env>_<32 url-safe chars>` carrying 192 random bits. */
export function generateApiKey(brand: string, environment: KeyEnvironment): string {
  return `${brand}_${environment}_${randomBytes(SECRET_BYTES).toString('base64url')}`;
}

export function parseApiKey(key: string): ParsedApiKey | undefined {
  const match = KEY_SHAPE.exec(key);
  if (!match) return undefined;
  return { brand: match[1], environment: match[2] as KeyEnvironment };
}

/** Keys are random, not chosen by people, so one SHA-256 round is enough to make a leaked table useless. */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** What operators see in listings: enough to recognise a key, never enough to use it. */
export function visiblePrefix(key: string): string {
  const parsed = parseApiKey(key);
  if (!parsed) throw new Error('not an API key');
  const secretStart = parsed.brand.length + parsed.environment.length + 2;
  return `${key.slice(0, secretStart + VISIBLE_SECRET_CHARS)}…`;
}
