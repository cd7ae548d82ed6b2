import { ID_KINDS } from '../../../../src/common/ids/id-kinds';

const ULID = '01JAAAAAAAAAAAAAAAAAAAAAAA';
const PREFIXES = { task: 'task_', assessment: 'asmt_', batch: 'batch_' } satisfies Record<keyof typeof ID_KINDS, string>;
const KINDS = (Object.keys(ID_KINDS) as (keyof typeof ID_KINDS)[]).map((name) => ({ name, kind: ID_KINDS[name], prefix: PREFIXES[name] }));

describe.each(KINDS)('$name ids', ({ name, kind, prefix }) => {
  it(`makes new ids of the form ${prefix}<ULID>`, () => {
    const id = kind.newId();
    expect(id.startsWith(prefix)).toBe(true);
    expect(kind.isId(id)).toBe(true);
  });

  it('derives the same id for the same organisation and Idempotency-Key, and others for other organisations or keys', () => {
    const id = kind.idForIdempotencyKey('acme', 'k-1');
    expect(kind.idForIdempotencyKey('acme', 'k-1')).toBe(id);
    expect(kind.idForIdempotencyKey('globex', 'k-1')).not.toBe(id);
    expect(kind.idForIdempotencyKey('acme', 'k-2')).not.toBe(id);
  });

  it(`gives derived ids the ${prefix}<ULID> shape`, () => {
    for (const key of ['a', 'b', 'c', '550e8400-e29b-41d4-a716-446655440000']) {
      expect(kind.isId(kind.idForIdempotencyKey('acme', key))).toBe(true);
    }
  });

  it('publishes the pattern it tests with', () => {
    expect(new RegExp(kind.pattern).test(`${prefix}${ULID}`)).toBe(true);
  });

  const others = KINDS.filter((other) => other.name !== name).map((other) => `${other.prefix}${ULID}`);
  it.each(['', prefix, `${prefix}${ULID.slice(1)}`, `${prefix}8${ULID.slice(1)}`, `${prefix}${ULID.slice(0, -1)}I`, `x${prefix}${ULID}`, ...others])(`rejects %p as a ${name} id`, (value) => {
    expect(kind.isId(value)).toBe(false);
  });

  it('never derives the id another kind derives from the same key', () => {
    const id = kind.idForIdempotencyKey('acme', 'k-1');
    for (const other of KINDS.filter((other) => other.name !== name)) expect(other.kind.idForIdempotencyKey('acme', 'k-1')).not.toBe(id);
  });
});
