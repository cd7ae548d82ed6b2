import { open, seal } from './aes-gcm';
import type { KeyRing } from './key-ring';

const PREFIX = 'sealed:v1:';

/**
 * Secrets at rest (webhook signing secrets), encrypted with the payload key ring as
 * `sealed:v1:<key id>:<base64 of iv ‖ ciphertext ‖ tag>`. Without a key ring they are stored as
 * they are; a value stored before encryption was turned on reads as it is.
 */
export class SecretSealer {
  constructor(private readonly keyRing: KeyRing | undefined) {}

  async seal(secret: string): Promise<string> {
    if (!this.keyRing) return secret;
    const { id, key } = await this.keyRing.current();
    return `${PREFIX}${id}:${seal(key, Buffer.from(secret, 'utf8'), Buffer.from(id)).toString('base64')}`;
  }

  async open(stored: string): Promise<string> {
    if (!stored.startsWith(PREFIX)) return stored;
    const separator = stored.indexOf(':', PREFIX.length);
    const id = stored.slice(PREFIX.length, separator);
    const found = await this.keyRing?.byId(id);
    if (!found) throw new Error(`a stored secret is encrypted with key "${id}", which is not configured`);
    return open(found.key, Buffer.from(stored.slice(separator + 1), 'base64'), Buffer.from(id)).toString('utf8');
  }

  /** Whether a stored value should be sealed again: plaintext, or sealed with a key older than the current one. */
  async isStale(stored: string): Promise<boolean> {
    if (!this.keyRing) return false;
    return !stored.startsWith(`${PREFIX}${(await this.keyRing.current()).id}:`);
  }
}
