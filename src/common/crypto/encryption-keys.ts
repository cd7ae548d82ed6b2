import { createSecretKey, randomBytes } from 'node:crypto';
import type { EncryptionKey } from './key-ring';

const KEY_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

export type ParsedKeys = { ok: true; keys: EncryptionKey[] } | { ok: false; problem: string };

/**
 * Keys written as `id:base64`, separated by commas or new lines, newest first: the first encrypts,
 * all decrypt. A problem names the entry by position, never quotes it: it holds a key.
 */
export function parseEncryptionKeys(text: string): ParsedKeys {
  const entries = text
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '' && !entry.startsWith('#'));
  if (entries.length === 0) return { ok: false, problem: 'holds no key' };
  const keys: EncryptionKey[] = [];
  for (const [index, entry] of entries.entries()) {
    const separator = entry.indexOf(':');
    const id = entry.slice(0, separator);
    const material = Buffer.from(entry.slice(separator + 1), 'base64');
    if (separator < 0 || !KEY_ID.test(id)) return { ok: false, problem: `key ${index + 1} must be written id:base64, the id 1-64 letters, digits, ".", "_" or "-"` };
    if (material.length !== KEY_BYTES) return { ok: false, problem: `key ${index + 1} ("${id}") must be ${KEY_BYTES} bytes (AES-256) in base64` };
    if (keys.some((key) => key.id === id)) return { ok: false, problem: `key id "${id}" appears twice` };
    keys.push({ id, key: createSecretKey(material) });
  }
  return { ok: true, keys };
}

/** A new key entry as parseEncryptionKeys reads it. */
export function generateEncryptionKeyEntry(id: string): string {
  return `${id}:${randomBytes(KEY_BYTES).toString('base64')}`;
}
