import { listQuerySchema } from '../../../../../src/contract/wire/listing';
import { parseListRequest } from '../../../../../src/api/platform/listing/list-request';

const STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;

const QUERIES: Array<Record<string, string>> = [
  {},
  { limit: '1' },
  { limit: '100' },
  { limit: '0' },
  { limit: '101' },
  { limit: '2.5' },
  { limit: 'many' },
  { cursor: 'abc' },
  { cursor: '' },
  { cursor: 'x'.repeat(4097) },
  { status: 'running' },
  { status: 'paused' },
  { created_after: '2025-06-02T09:15:27Z' },
  { created_after: '2025-06-02T09:15:27+02:00' },
  { created_before: '2025-06-02' },
  { created_before: 'yesterday' },
  { page: '2' },
];

function accepted(query: Record<string, string>): unknown {
  try {
    return parseListRequest(query, STATUSES);
  } catch {
    return 'refused';
  }
}

describe('the documented list query', () => {
  it.each(QUERIES.map((query) => [JSON.stringify(query), query]))('answers %s as parseListRequest does', (_label, query) => {
    const documented = listQuerySchema(STATUSES).safeParse(query);
    expect(documented.success ? documented.data : 'refused').toEqual(accepted(query));
  });
});
