import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { ENCRYPTED_ENCODING, EncryptedPayloadCodec, KEY_ID_METADATA } from '../../../../src/common/crypto/encrypted-payload-codec';
import { generateEncryptionKeyEntry, parseEncryptionKeys } from '../../../../src/common/crypto/encryption-keys';
import { StaticKeyRing } from '../../../../src/common/crypto/key-ring';

function ring(...entries: string[]): StaticKeyRing {
  const parsed = parseEncryptionKeys(entries.join('\n'));
  if (!parsed.ok) throw new Error(parsed.problem);
  return new StaticKeyRing(parsed.keys);
}

const MARKER = 'marker-7c1f0e4b confidential text';
const oldEntry = generateEncryptionKeyEntry('k-2025');
const newEntry = generateEncryptionKeyEntry('k-2026');

function text(payload: Payload, name: string): string {
  return Buffer.from(payload.metadata?.[name] ?? new Uint8Array()).toString('utf8');
}

describe('EncryptedPayloadCodec', () => {
  it('encrypts each payload with the current key, names the key, and decodes it back', async () => {
    const codec = new EncryptedPayloadCodec(ring(newEntry, oldEntry));
    const plain = [defaultPayloadConverter.toPayload({ text: MARKER }), defaultPayloadConverter.toPayload(null)];
    const encoded = await codec.encode(plain);
    expect(encoded.map((payload) => text(payload, 'encoding'))).toEqual([ENCRYPTED_ENCODING, ENCRYPTED_ENCODING]);
    expect(encoded.map((payload) => text(payload, KEY_ID_METADATA))).toEqual(['k-2026', 'k-2026']);
    expect(Buffer.from(encoded[0].data!).includes(Buffer.from('marker-7c1f0e4b'))).toBe(false);
    const decoded = await codec.decode(encoded);
    expect(decoded.map((payload) => defaultPayloadConverter.fromPayload(payload))).toEqual([{ text: MARKER }, null]);
  });

  it('decodes what an older key of the ring encrypted after a rotation', async () => {
    const before = await new EncryptedPayloadCodec(ring(oldEntry)).encode([defaultPayloadConverter.toPayload(MARKER)]);
    const [decoded] = await new EncryptedPayloadCodec(ring(newEntry, oldEntry)).decode(before);
    expect(defaultPayloadConverter.fromPayload(decoded)).toBe(MARKER);
  });

  it('passes a payload written before encryption was turned on through unchanged', async () => {
    const plain = defaultPayloadConverter.toPayload({ summary: MARKER });
    const [decoded] = await new EncryptedPayloadCodec(ring(newEntry)).decode([plain]);
    expect(decoded).toBe(plain);
  });

  it('refuses a payload encrypted with a key the ring does not hold, naming only the key id', async () => {
    const encoded = await new EncryptedPayloadCodec(ring(oldEntry)).encode([defaultPayloadConverter.toPayload(MARKER)]);
    await expect(new EncryptedPayloadCodec(ring(newEntry)).decode(encoded)).rejects.toThrow('a payload is encrypted with key "k-2025", which is not configured');
  });

  it('refuses a payload whose ciphertext or key id was altered', async () => {
    const codec = new EncryptedPayloadCodec(ring(newEntry, generateEncryptionKeyEntry('other')));
    const [encoded] = await codec.encode([defaultPayloadConverter.toPayload(MARKER)]);
    const flipped = Buffer.from(encoded.data!);
    flipped[20] ^= 1;
    await expect(codec.decode([{ ...encoded, data: flipped }])).rejects.toThrow();
    const relabelled = { ...encoded, metadata: { ...encoded.metadata, [KEY_ID_METADATA]: Buffer.from('other') } };
    await expect(codec.decode([relabelled])).rejects.toThrow();
  });
});

describe('parseEncryptionKeys', () => {
  it('reads id:base64 entries newest first, by comma or line, skipping comments', () => {
    const parsed = parseEncryptionKeys(`# comment\n${newEntry}, ${oldEntry}\n`);
    expect(parsed.ok && parsed.keys.map((key) => key.id)).toEqual(['k-2026', 'k-2025']);
  });

  it.each([
    ['', 'holds no key'],
    ['no-separator', 'key 1 must be written id:base64'],
    [`${newEntry},bad id:${newEntry.split(':')[1]}`, 'key 2 must be written id:base64'],
    [`short:${Buffer.alloc(16).toString('base64')}`, 'key 1 ("short") must be 32 bytes'],
    [`${newEntry},${newEntry}`, 'key id "k-2026" appears twice'],
  ])('explains %j without quoting key material', (input, problem) => {
    const parsed = parseEncryptionKeys(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.problem).toContain(problem);
      expect(parsed.problem).not.toContain(newEntry.split(':')[1]);
    }
  });
});
