import Database from 'better-sqlite3';
import { Client } from 'pg';
import type { ReviewerAuditEntry, StoredReviewer } from '../../../../src/common/storage/tables';
import { testPostgresPerFile } from '../../../support/test-postgres';
import { testStorageBackends, type TestStorage } from '../../../support/test-storage';

const postgres = testPostgresPerFile();
const CREATED_AT = '2030-01-01T00:00:00.000Z';
const INSERT_WITHOUT_GROUPS = 'INSERT INTO reviewer_credentials (id, name, environment, prefix, hash, created_at) VALUES ';

/** A row as a release before reviewer groups wrote it: without the column. */
async function insertWithoutGroups(backend: TestStorage, id: string, name: string): Promise<void> {
  if (backend.kind === 'sqlite') {
    const db = new Database(backend.file);
    try {
      db.prepare(`${INSERT_WITHOUT_GROUPS}(?, ?, 'test', 'p', ?, ?)`).run(id, name, Buffer.from(id), CREATED_AT);
    } finally {
      db.close();
    }
    return;
  }
  const client = new Client({ connectionString: backend.url });
  await client.connect();
  try {
    await client.query(`${INSERT_WITHOUT_GROUPS}($1, $2, 'test', 'p', $3, $4)`, [id, name, Buffer.from(id), CREATED_AT]);
  } finally {
    await client.end();
  }
}

function reviewer(id: string, groups: string[]): StoredReviewer {
  return { id, name: `name-${id}`, environment: 'test', prefix: 'assay_rvw_test_abcdef…', hash: Buffer.from(`hash-${id}`), groups, createdAt: CREATED_AT, revokedAt: null };
}

function audit(stored: StoredReviewer): ReviewerAuditEntry {
  return { at: CREATED_AT, actor: 'ops', action: 'add', reviewerId: stored.id, name: stored.name, environment: stored.environment, details: {} };
}

describe.each(testStorageBackends(postgres))('%s reviewer credentials', (_name, makeBackend) => {
  let backend: TestStorage;

  beforeEach(async () => {
    backend = await makeBackend();
  });

  afterEach(async () => {
    await backend.dispose();
  });

  it('keep their groups, in order, through every read', async () => {
    const store = backend.storage.reviewers;
    const rita = reviewer('rvw_1', ['network', 'security']);
    const nina = reviewer('rvw_2', []);
    expect(await store.add(rita, audit(rita))).toBe(true);
    expect(await store.add(nina, audit(nina))).toBe(true);
    expect(await store.findByHash(rita.hash)).toEqual(rita);
    expect(await store.findById(nina.id)).toEqual(nina);
    expect(await store.list()).toEqual([rita, nina]);
    expect(await store.revoke(rita.id, '2030-01-02T00:00:00.000Z', () => ({ ...audit(rita), action: 'revoke' }))).toBe(true);
    expect(await store.findById(rita.id)).toEqual({ ...rita, revokedAt: '2030-01-02T00:00:00.000Z' });
  });

  it('read a credential written without groups, as every one issued before groups, as having none', async () => {
    await insertWithoutGroups(backend, 'rvw_old', 'alice');
    expect(await backend.storage.reviewers.findById('rvw_old')).toMatchObject({ id: 'rvw_old', name: 'alice', groups: [] });
    expect(await backend.storage.reviewers.findByHash(Buffer.from('rvw_old'))).toMatchObject({ groups: [] });
  });
});
