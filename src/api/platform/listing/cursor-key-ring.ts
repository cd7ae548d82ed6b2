import { createSecretKey, randomBytes } from 'node:crypto';
import { StaticKeyRing, type KeyRing } from '../../../common/crypto/key-ring';

const KEY_BYTES = 32;

/**
 * The keys list cursors are signed with (ListCursors derives its MAC key from them with HKDF).
 *
 * The payload key ring when there is one, so cursor keys rotate exactly like the payload keys: a
 * cursor signed with the previous key still verifies while that key is configured, and every
 * instance given the same keys accepts the others' cursors. `npm start` and `npm run cluster`
 * write a key file into DATA_DIR on their first start and docker-compose requires the keys, so
 * every documented way of running Assay has a ring.
 *
 * Without one (a bare `npm run start:api` with no key configured, the tests), a random key made when
 * the process starts, kept in memory only. It is unforgeable like any other; its cost is that a
 * cursor does not outlive the process or work on another instance: the client gets 400 and lists
 * again from the first page. A key file written by the API instead would be a second key-management
 * path, and would still differ between instances that do not share DATA_DIR.
 */
export function cursorKeyRing(configured: KeyRing | undefined): KeyRing {
  return configured ?? new StaticKeyRing([{ id: 'process', key: createSecretKey(randomBytes(KEY_BYTES)) }]);
}
