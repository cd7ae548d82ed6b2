import type { AssessmentRevisionStore } from '../../../../src/common/storage/assessment-revision-store';
import type { AssessmentRevisionRow } from '../../../../src/common/storage/tables';
import { testPostgresPerFile } from '../../../support/test-postgres';
import { testStorageBackends, type TestStorage } from '../../../support/test-storage';

const postgres = testPostgresPerFile();

const id = (n: number) => `asmt_${String(n).padStart(26, '0')}`;
const CREATED_AT = '2030-01-01T00:00:00.000Z';

function link(assessment: number, revisionOf: number, fields: Partial<AssessmentRevisionRow> = {}): AssessmentRevisionRow {
  return { environment: 'test', organizationId: 'acme', assessmentId: id(assessment), revisionOf: id(revisionOf), createdAt: CREATED_AT, ...fields };
}

const ref = (n: number, organizationId = 'acme') => ({ organizationId, assessmentId: id(n) });

describe.each(testStorageBackends(postgres))('%s revision links', (_name, makeBackend) => {
  let backend: TestStorage;
  let store: AssessmentRevisionStore;

  beforeEach(async () => {
    backend = await makeBackend();
    store = backend.storage.assessmentRevisions;
  });

  afterEach(async () => {
    await backend.dispose();
  });

  it('links a revision both ways, and a retry of the same link writes nothing new', async () => {
    expect(await store.record(link(2, 1))).toBe(true);
    expect(await store.record(link(2, 1, { createdAt: '2030-01-02T00:00:00.000Z' }))).toBe(false);
    expect(await store.links('test', ref(1))).toEqual({ revisionOf: null, revisedBy: id(2) });
    expect(await store.links('test', ref(2))).toEqual({ revisionOf: id(1), revisedBy: null });
    expect(await store.revisionOf('test', ref(1))).toEqual(link(2, 1));
    expect(await store.revisedFrom('test', ref(2))).toEqual(link(2, 1));
  });

  it('lets an assessment be revised once, and revise one other', async () => {
    expect(await store.record(link(2, 1))).toBe(true);
    expect(await store.record(link(3, 1))).toBe(false);
    expect(await store.record(link(2, 4))).toBe(false);
    // A chain: the revision is revised in turn.
    expect(await store.record(link(3, 2))).toBe(true);
    expect(await store.links('test', ref(2))).toEqual({ revisionOf: id(1), revisedBy: id(3) });
    expect(await store.revisionOf('test', ref(1))).toEqual(link(2, 1));
  });

  it('keeps organisations and environments apart', async () => {
    await store.record(link(2, 1));
    expect(await store.record(link(3, 1, { organizationId: 'other' }))).toBe(true);
    expect(await store.record(link(3, 1, { environment: 'live' }))).toBe(true);
    expect(await store.links('test', ref(1, 'other'))).toEqual({ revisionOf: null, revisedBy: id(3) });
    expect(await store.links('live', ref(1))).toEqual({ revisionOf: null, revisedBy: id(3) });
    expect(await store.links('test', ref(1))).toEqual({ revisionOf: null, revisedBy: id(2) });
    expect(await store.links('test', ref(3))).toEqual({ revisionOf: null, revisedBy: null });
  });

  it('reads the links of a page of assessments at once', async () => {
    await store.record(link(2, 1));
    await store.record(link(3, 2));
    await store.record(link(9, 8));
    const links = await store.linksOf('test', 'acme', [id(1), id(2), id(3), id(5)]);
    expect(Object.fromEntries(links)).toEqual({
      [id(1)]: { revisionOf: null, revisedBy: id(2) },
      [id(2)]: { revisionOf: id(1), revisedBy: id(3) },
      [id(3)]: { revisionOf: id(2), revisedBy: null },
      [id(5)]: { revisionOf: null, revisedBy: null },
    });
    expect((await store.linksOf('test', 'acme', [])).size).toBe(0);
  });

  it('drops exactly one link, and an erased assessment’s both ways', async () => {
    await store.record(link(2, 1));
    await store.record(link(3, 2));
    await store.drop(link(2, 7));
    expect(await store.links('test', ref(2))).toEqual({ revisionOf: id(1), revisedBy: id(3) });
    await store.removeAssessment('test', ref(2, 'other'));
    await store.removeAssessment('live', ref(2));
    expect(await store.links('test', ref(2))).toEqual({ revisionOf: id(1), revisedBy: id(3) });
    await store.removeAssessment('test', ref(2));
    expect(await store.links('test', ref(1))).toEqual({ revisionOf: null, revisedBy: null });
    expect(await store.links('test', ref(3))).toEqual({ revisionOf: null, revisedBy: null });
    // What it revised may be revised again.
    expect(await store.record(link(4, 1))).toBe(true);
    await store.drop(link(4, 1));
    expect(await store.revisionOf('test', ref(1))).toBeUndefined();
  });
});
