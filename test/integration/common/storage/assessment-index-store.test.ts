import Database from 'better-sqlite3';
import { CamelCasePlugin, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Dialect } from 'kysely';
import { Client } from 'pg';
import { queuePageQuery, type AssessmentIndexStore, type QueuePageRequest } from '../../../../src/common/storage/assessment-index-store';
import type { AssessmentIndexRow, Tables } from '../../../../src/common/storage/tables';
import { testPostgresPerFile } from '../../../support/test-postgres';
import { testStorageBackends, type TestStorage } from '../../../support/test-storage';

const postgres = testPostgresPerFile();

/** A Kysely that only compiles, with the stores' naming, so the test runs exactly the store's query text. */
function compilerFor(kind: 'sqlite' | 'postgres'): Kysely<Tables> {
  const dialect: Dialect =
    kind === 'sqlite'
      ? { createAdapter: () => new SqliteAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (db) => new SqliteIntrospector(db), createQueryCompiler: () => new SqliteQueryCompiler() }
      : { createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (db) => new PostgresIntrospector(db), createQueryCompiler: () => new PostgresQueryCompiler() };
  return new Kysely<Tables>({ dialect, plugins: [new CamelCasePlugin()] });
}

/** The database's own words for how it runs the store's page query. */
async function planOf(backend: TestStorage, request: QueuePageRequest): Promise<string> {
  const { sql, parameters } = queuePageQuery(compilerFor(backend.kind), 'test', request).compile();
  if (backend.kind === 'sqlite') {
    const db = new Database(backend.file, { readonly: true });
    try {
      return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(parameters as unknown[])) as Array<{ detail: string }>).map((row) => row.detail).join('\n');
    } finally {
      db.close();
    }
  }
  const client = new Client({ connectionString: backend.url });
  await client.connect();
  try {
    // A small table is cheaper to scan whole; what matters is that the index can serve the page in order.
    await client.query('SET enable_seqscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, parameters as unknown[]);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
  }
}

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

function row(id: number, fields: Partial<AssessmentIndexRow> = {}): AssessmentIndexRow {
  return {
    environment: 'test',
    assessmentId: `asmt_${String(id).padStart(26, '0')}`,
    organizationId: `org-${id % 5}`,
    createdAt: at(id),
    dueAt: at(1000 + id),
    claimedBy: null,
    closedAt: null,
    stage: 'review',
    stageGroup: null,
    ...fields,
  };
}

const idsOf = (rows: AssessmentIndexRow[]) => rows.map((indexed) => indexed.assessmentId);

describe.each(testStorageBackends(postgres))('%s review index', (_name, makeBackend) => {
  let backend: TestStorage;
  let index: AssessmentIndexStore;

  beforeEach(async () => {
    backend = await makeBackend();
    index = backend.storage.assessmentIndex;
  });

  afterEach(async () => {
    await backend.dispose();
  });

  it('finds a row by environment and id, and keeps what a row holds when the same one is added again', async () => {
    await index.add([row(1)]);
    await index.place('test', row(1).assessmentId, { dueAt: at(5000), claimedBy: 'alice', closedAt: null, stage: 'review', stageGroup: null });
    await index.add([row(1), row(2)]);
    expect(await index.find('test', row(1).assessmentId)).toEqual({ ...row(1), dueAt: at(5000), claimedBy: 'alice' });
    expect(await index.find('live', row(1).assessmentId)).toBeUndefined();
    await index.remove('test', { organizationId: 'another-org', assessmentId: row(2).assessmentId });
    expect(await index.find('test', row(2).assessmentId)).toBeDefined();
    await index.remove('test', row(2));
    expect(await index.find('test', row(2).assessmentId)).toBeUndefined();
  });

  it('pages open rows earliest deadline first, then oldest, then by id, each once', async () => {
    // Two rows share a deadline and a creation time: the id decides.
    const rows = [row(3), row(1), row(2), row(4, { dueAt: at(1001) }), row(5, { closedAt: at(50) }), row(6, { environment: 'live' }), row(7, { dueAt: at(1001), createdAt: at(4) })];
    await index.add(rows);
    const seen: string[] = [];
    let after: AssessmentIndexRow | undefined;
    for (;;) {
      const page = await index.queuePage('test', { after, limit: 2 });
      seen.push(...idsOf(page));
      if (page.length < 2) break;
      after = page[1];
    }
    expect(seen).toEqual(idsOf([row(1), row(4), row(7), row(2), row(3)]));
  });

  it('narrows a page to one reviewer’s claims and to what is due before an instant', async () => {
    await index.add([row(1, { claimedBy: 'alice' }), row(2, { claimedBy: 'bob' }), row(3, { claimedBy: 'alice' }), row(4), row(5, { claimedBy: 'alice', closedAt: at(9) })]);
    expect(idsOf(await index.queuePage('test', { claimedBy: 'alice', limit: 10 }))).toEqual(idsOf([row(1), row(3)]));
    expect(idsOf(await index.queuePage('test', { claimedBy: 'alice', after: row(1, { claimedBy: 'alice' }), limit: 10 }))).toEqual(idsOf([row(3)]));
    expect(idsOf(await index.queuePage('test', { dueBefore: at(1003), limit: 10 }))).toEqual(idsOf([row(1), row(2)]));
    expect(idsOf(await index.queuePage('test', { dueBefore: at(1003), claimedBy: 'bob', limit: 10 }))).toEqual(idsOf([row(2)]));
  });

  it('narrows a page to the active stage and to its reviewer group', async () => {
    await index.add([
      row(1, { stage: 'network', stageGroup: 'net' }),
      row(2, { stage: 'security', stageGroup: 'sec' }),
      row(3, { stage: 'network', stageGroup: 'net', claimedBy: 'alice' }),
      row(4, { stage: 'final', stageGroup: null }),
      row(5, { stage: 'network', stageGroup: 'net', closedAt: at(9) }),
      row(6, { stage: 'network', stageGroup: 'net', environment: 'live' }),
      row(7, { stage: 'audit', stageGroup: 'sec' }),
    ]);
    expect(idsOf(await index.queuePage('test', { stage: 'network', limit: 10 }))).toEqual(idsOf([row(1), row(3)]));
    expect(idsOf(await index.queuePage('test', { group: 'sec', limit: 10 }))).toEqual(idsOf([row(2), row(7)]));
    expect(idsOf(await index.queuePage('test', { group: 'sec', after: row(2), limit: 10 }))).toEqual(idsOf([row(7)]));
    expect(idsOf(await index.queuePage('test', { stage: 'network', group: 'net', claimedBy: 'alice', limit: 10 }))).toEqual(idsOf([row(3)]));
    expect(idsOf(await index.queuePage('test', { stage: 'security', group: 'net', limit: 10 }))).toEqual([]);
  });

  it('narrows a page to what a reviewer may see: the listed stages, stages of the listed groups, and stages without a group', async () => {
    await index.add([
      row(1, { stage: 'network', stageGroup: 'net' }),
      row(2, { stage: 'security', stageGroup: 'sec' }),
      row(3, { stage: 'final', stageGroup: null }),
      row(4, { stage: 'audit', stageGroup: 'aud' }),
      // A stage of the group that the listed stages do not name: one of an older pipeline.
      row(5, { stage: 'legacy', stageGroup: 'sec' }),
      row(6, { stage: null, stageGroup: null }),
      row(7, { stage: 'security', stageGroup: 'sec', closedAt: at(9) }),
    ]);
    const secAndAfter = { stages: ['security', 'audit'], groups: ['sec'] };
    expect(idsOf(await index.queuePage('test', { sight: secAndAfter, limit: 10 }))).toEqual(idsOf([row(2), row(3), row(4), row(5), row(6)]));
    expect(idsOf(await index.queuePage('test', { sight: secAndAfter, after: row(3), limit: 10 }))).toEqual(idsOf([row(4), row(5), row(6)]));
    expect(idsOf(await index.queuePage('test', { sight: secAndAfter, group: 'net', limit: 10 }))).toEqual([]);
    // No group and no stage of theirs: only the stages every reviewer may act on.
    expect(idsOf(await index.queuePage('test', { sight: { stages: [], groups: [] }, limit: 10 }))).toEqual(idsOf([row(3), row(6)]));
  });

  it('gives an open row indexed without a stage the stage of the same row added again, and changes nothing else', async () => {
    await index.add([row(1, { stage: null }), row(2, { stage: null, closedAt: at(5) }), row(3, { stage: 'network', stageGroup: 'net' }), row(4, { stage: null })]);
    await index.add([
      row(1, { stage: 'security', stageGroup: 'sec', claimedBy: 'bob', dueAt: at(9999) }),
      row(2, { stage: 'security', stageGroup: 'sec' }),
      row(3, { stage: 'security', stageGroup: 'sec' }),
      row(4, { stage: null }),
    ]);
    expect(await index.find('test', row(1).assessmentId)).toEqual(row(1, { stage: 'security', stageGroup: 'sec' }));
    expect(await index.find('test', row(2).assessmentId)).toEqual(row(2, { stage: null, closedAt: at(5) }));
    expect(await index.find('test', row(3).assessmentId)).toEqual(row(3, { stage: 'network', stageGroup: 'net' }));
    expect(await index.find('test', row(4).assessmentId)).toEqual(row(4, { stage: null }));
  });

  it('reads every page as a range of one index, in its order, whatever the filters', async () => {
    const stages = [
      ['network', 'net'],
      ['security', 'sec'],
      ['review', null],
    ] as const;
    await index.add(
      Array.from({ length: 2_000 }, (_, id) => {
        const [stage, stageGroup] = stages[id % 3];
        return row(id, { claimedBy: id % 3 === 0 ? 'alice' : null, closedAt: id % 4 === 0 ? at(id) : null, stage, stageGroup });
      }),
    );
    const after = { dueAt: at(1500), createdAt: at(500), assessmentId: row(500).assessmentId };
    for (const request of [
      { limit: 21 },
      { after, limit: 21 },
      { dueBefore: at(1700), after, limit: 21 },
      { claimedBy: 'alice', after, limit: 21 },
      { claimedBy: 'alice', dueBefore: at(1700), limit: 21 },
      { stage: 'security', after, limit: 21 },
      { group: 'sec', dueBefore: at(1700), after, limit: 21 },
      { stage: 'network', group: 'net', limit: 21 },
      { sight: { stages: ['security', 'review'], groups: ['sec'] }, after, limit: 21 },
      { sight: { stages: [], groups: [] }, claimedBy: 'alice', limit: 21 },
      { sight: { stages: ['security'], groups: ['sec'] }, group: 'sec', dueBefore: at(1700), limit: 21 },
    ]) {
      const plan = await planOf(backend, request);
      // SQLite's SEARCH and PostgreSQL's Index Scan read a range of the index; a SCAN would read all of it.
      expect({ request, plan }).toEqual({ request, plan: expect.stringMatching(/SEARCH assessment_index USING INDEX assessment_index_(queue|claims|stage|group)|Index Scan using assessment_index_(queue|claims|stage|group)/) });
      // No sort: the rows come out of the index in the queue's order, so a page reads `limit` of them.
      expect({ request, plan }).not.toEqual({ request, plan: expect.stringMatching(/TEMP B-TREE|Sort/) });
    }
  });

  it('moves the catch-up mark forward only, and drops rows closed before an instant', async () => {
    expect(await index.indexedUntil('test')).toBeUndefined();
    await index.advanceIndexedUntil('test', at(10));
    await index.advanceIndexedUntil('test', at(5));
    expect(await index.indexedUntil('test')).toBe(at(10));
    expect(await index.indexedUntil('live')).toBeUndefined();

    await index.add([row(1, { closedAt: at(1) }), row(2, { closedAt: at(3) }), row(3), row(4, { environment: 'live', closedAt: at(1) })]);
    await index.removeClosedBefore('test', at(2));
    expect(await index.find('test', row(1).assessmentId)).toBeUndefined();
    expect(await index.find('test', row(2).assessmentId)).toBeDefined();
    expect(await index.find('test', row(3).assessmentId)).toBeDefined();
    expect(await index.find('live', row(4).assessmentId)).toBeDefined();
  });
});
