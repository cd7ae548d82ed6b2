import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { open, seal } from './aes-gcm';
import type { KeyRing } from './key-ring';

/** The metadata Temporal's samples and tools use for an encrypted payload. */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';
const CIPHER_METADATA = 'encryption-cipher';
const CIPHER = 'AES-256-GCM';

const ProtoPayload = temporal.api.common.v1.Payload;

/**
 * Encrypts each whole payload (data and metadata) with the key ring's current key, naming the key
 * in the outer payload's metadata so any key of the ring decrypts it later. Payloads that are not
 * encrypted (written before encryption was turned on) decode as they are.
 */
export class EncryptedPayloadCodec implements PayloadCodec {
  constructor(private readonly keyRing: KeyRing) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const { id, key } = await this.keyRing.current();
    const keyId = Buffer.from(id);
    return payloads.map((payload) => ({
      metadata: { encoding: Buffer.from(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: keyId, [CIPHER_METADATA]: Buffer.from(CIPHER) },
      data: seal(key, ProtoPayload.encode(payload).finish(), keyId),
    }));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.all(payloads.map((payload) => this.decodeOne(payload)));
  }

  private async decodeOne(payload: Payload): Promise<Payload> {
    if (metadataText(payload, 'encoding') !== ENCRYPTED_ENCODING) return payload;
    const id = metadataText(payload, KEY_ID_METADATA);
    if (id === undefined) throw new Error(`an encrypted payload has no ${KEY_ID_METADATA}`);
    const found = await this.keyRing.byId(id);
    if (!found) throw new Error(`a payload is encrypted with key "${id}", which is not configured`);
    const plaintext = open(found.key, payload.data ?? new Uint8Array(), Buffer.from(id));
    return ProtoPayload.decode(plaintext) as Payload;
  }
}

function metadataText(payload: Payload, name: string): string | undefined {
  const value = payload.metadata?.[name];
  return value ? Buffer.from(value).toString('utf8') : undefined;
}
