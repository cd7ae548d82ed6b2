import { createSecretKey, randomBytes } from 'node:crypto';
import { cursorKeyRing } from '../../../../../src/api/platform/listing/cursor-key-ring';
import { ListCursors } from '../../../../../src/api/platform/listing/list-cursor';
import { StaticKeyRing, type EncryptionKey } from '../../../../../src/common/crypto/key-ring';

const SCOPE = "test\nWorkflowType = 'ai-task' AND Organization = 'acme'";
const TOKEN = Uint8Array.from([0, 1, 2, 250, 251, 252]);

function ringKey(id: string): EncryptionKey {
  return { id, key: createSecretKey(randomBytes(32)) };
}

const [current, previous, stranger] = [ringKey('k2'), ringKey('k1'), ringKey('k2')];
const cursors = new ListCursors(new StaticKeyRing([current, previous]));

/** The cursor with one character of one part replaced by another of the base64url alphabet. */
function withCharacterChanged(cursor: string, part: 0 | 1, index: number): string {
  const parts = cursor.split('.');
  const text = parts[part];
  const at = (index + text.length) % text.length;
  parts[part] = text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
  return parts.join('.');
}

/** The cursor with its body's JSON edited and re-encoded, keeping the tag, as a client could. */
function withBodyEdited(cursor: string, edit: (body: Record<string, string>) => void): string {
  const [body, tag] = cursor.split('.');
  const decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  edit(decoded);
  return `${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${tag}`;
}

async function refusal(cursor: string, scope = SCOPE, by: ListCursors = cursors): Promise<{ status: number; code: string; message: string }> {
  return by.decode(cursor, scope).then(
    () => {
      throw new Error('the cursor was accepted');
    },
    (error: { status: number; code: string; message: string }) => error,
  );
}

describe('ListCursors', () => {
  it('gives back the page token of a cursor it issued, for the same list', async () => {
    const cursor = await cursors.encode(TOKEN, SCOPE);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(await cursors.decode(cursor, SCOPE)).toEqual(Buffer.from(TOKEN));
  });

  it('refuses a genuine cursor on another list or with other filters', async () => {
    const refused = await refusal(await cursors.encode(TOKEN, SCOPE), `${SCOPE} AND ExecutionStatus = 'Running'`);
    expect(refused).toMatchObject({ status: 400, code: 'INVALID_REQUEST', message: 'cursor: does not belong to this list and these filters' });
  });

  it.each([
    ['the position (page token)', (body: Record<string, string>) => (body.t = Buffer.from([9, 9, 9]).toString('base64url'))],
    ['the filter fingerprint', (body: Record<string, string>) => (body.q = 'A'.repeat(22))],
    ['the key id', (body: Record<string, string>) => (body.k = 'k1')],
  ])('refuses a cursor whose %s was edited, whatever the edit', async (_part, edit) => {
    const refused = await refusal(withBodyEdited(await cursors.encode(TOKEN, SCOPE), edit));
    expect(refused).toMatchObject({ status: 400, code: 'INVALID_REQUEST', message: expect.stringMatching(/^cursor: altered/) });
  });

  it('refuses a change of any single character of the body or of the tag', async () => {
    const cursor = await cursors.encode(TOKEN, SCOPE);
    const [body, tag] = cursor.split('.');
    for (let index = 0; index < body.length; index++) expect((await refusal(withCharacterChanged(cursor, 0, index))).status).toBe(400);
    for (let index = 0; index < tag.length; index++) expect((await refusal(withCharacterChanged(cursor, 1, index))).status).toBe(400);
  });

  it.each([
    ['truncated', (cursor: string) => cursor.slice(0, -1)],
    ['cut at the dot', (cursor: string) => cursor.split('.')[0]],
    ['extended', (cursor: string) => `${cursor}A`],
    ['given a third part', (cursor: string) => `${cursor}.e30`],
    ['padded', (cursor: string) => `${cursor}=`],
    ['without its tag', (cursor: string) => `${cursor.split('.')[0]}.`],
  ])('refuses a cursor %s', async (_how, change) => {
    expect(await refusal(change(await cursors.encode(TOKEN, SCOPE)))).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
  });

  it.each(['not-a-cursor', '', '.', 'e30.e30', Buffer.from('null').toString('base64url') + '.AA'])('refuses %j as not a cursor at all', async (cursor) => {
    expect(await refusal(cursor)).toMatchObject({ status: 400, code: 'INVALID_REQUEST', message: expect.stringMatching(/^cursor: not a cursor this API returned/) });
  });

  it('refuses a cursor forged with a key of the same id that is not the ring key', async () => {
    const forged = await new ListCursors(new StaticKeyRing([stranger])).encode(TOKEN, SCOPE);
    expect(await refusal(forged)).toMatchObject({ status: 400, message: expect.stringMatching(/^cursor: altered/) });
  });

  describe('key rotation', () => {
    it('still accepts a cursor signed with the previous key while the ring holds it, and signs new ones with the newest', async () => {
      const signedBefore = await new ListCursors(new StaticKeyRing([previous])).encode(TOKEN, SCOPE);
      expect(await cursors.decode(signedBefore, SCOPE)).toEqual(Buffer.from(TOKEN));
      const signedNow = await cursors.encode(TOKEN, SCOPE);
      expect(JSON.parse(Buffer.from(signedNow.split('.')[0], 'base64url').toString('utf8')).k).toBe('k2');
    });

    it('refuses it once the previous key is dropped from the ring', async () => {
      const signedBefore = await cursors.encode(TOKEN, SCOPE);
      const afterRotation = new ListCursors(new StaticKeyRing([ringKey('k3'), ringKey('k2-replaced')]));
      expect(await refusal(signedBefore, SCOPE, afterRotation)).toMatchObject({ status: 400, message: expect.stringMatching(/no longer holds/) });
    });
  });

  describe('without configured keys', () => {
    it('signs with a key of its own, which another process (another random key) does not accept', async () => {
      const one = new ListCursors(cursorKeyRing(undefined));
      const cursor = await one.encode(TOKEN, SCOPE);
      expect(await one.decode(cursor, SCOPE)).toEqual(Buffer.from(TOKEN));
      expect((await refusal(cursor, SCOPE, new ListCursors(cursorKeyRing(undefined)))).status).toBe(400);
    });

    it('uses the configured ring when there is one', async () => {
      const ring = new StaticKeyRing([current]);
      expect(cursorKeyRing(ring)).toBe(ring);
    });
  });
});
