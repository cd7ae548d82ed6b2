import { createCipheriv, createDecipheriv, randomBytes, type KeyObject } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM with a fresh random IV: iv ‖ ciphertext ‖ tag. The associated data (the key id)
 * binds the ciphertext to the key it names, so a tampered key id fails authentication.
 */
export function seal(key: KeyObject, plaintext: Uint8Array, associatedData: Uint8Array): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData);
  return Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

/** The plaintext of what seal() produced; throws when the key, the data or the associated data differ. */
export function open(key: KeyObject, sealed: Uint8Array, associatedData: Uint8Array): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error('sealed data is too short');
  const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  const decipher = createDecipheriv(ALGORITHM, key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(associatedData);
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
}
