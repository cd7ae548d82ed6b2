import fc from 'fast-check';
import { badAssessmentBody, badTaskBody, brokenBytes, VALID_ASSESSMENT_BODY, VALID_TASK_BODY } from './bad-bodies';
import { PROTOTYPE_KEYS } from './json-text';
import type { RawRequest } from '../../test/support/raw-http';
import { ASSESSMENT_STATUSES, TASK_STATUSES } from '../../src/contract';

/** One generated request and what kind of wrongness it carries, for the report. */
export interface BadRequest {
  category: string;
  request: RawRequest;
}

const TASKS = '/v1/ai/tasks';
const ASSESSMENTS = '/v1/network-assessments';
const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];
// Control characters a header value may not carry (tab may; CR and LF end the line).
const CONTROL_BYTES = [...Array.from({ length: 0x20 }, (_, byte) => byte).filter((byte) => byte !== 0x09 && byte !== 0x0a && byte !== 0x0d), 0x7f];

function post(path: string, apiKey: string, body: string | Buffer, headers: Array<[string, string | Buffer]> = [JSON_TYPE]): RawRequest {
  return { method: 'POST', target: path, headers: [['Authorization', `Bearer ${apiKey}`], ...headers], body: Buffer.from(body) };
}

/** A create with one header broken; the body alone would be accepted. */
function oddHeaders(apiKey: string): fc.Arbitrary<RawRequest> {
  const auth: [string, string] = ['Authorization', `Bearer ${apiKey}`];
  const withHeaders = (headers: Array<[string, string | Buffer]>, path = TASKS) => ({ method: 'POST', target: path, headers, body: Buffer.from(path === TASKS ? VALID_TASK_BODY : VALID_ASSESSMENT_BODY) });
  const path = fc.constantFrom(TASKS, ASSESSMENTS);
  // Printable text with one control character (never CR or LF, which would start a new header line).
  const withControl = (min: number, max: number) =>
    fc
      .tuple(fc.stringMatching(new RegExp(`^[!-~]{${min},${max}}$`)), fc.constantFrom(...CONTROL_BYTES), fc.nat())
      .map(([text, control, at]) => {
        const index = at % (text.length + 1);
        return Buffer.concat([Buffer.from(text.slice(0, index)), Buffer.from([control]), Buffer.from(text.slice(index))]);
      });
  const withObsText = fc.tuple(fc.stringMatching(/^[!-~]{0,20}$/), fc.integer({ min: 0x80, max: 0xff })).map(([text, byte]) => Buffer.concat([Buffer.from(text), Buffer.from([byte])]));
  return fc.oneof(
    fc.tuple(fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/jsonx', 'json', 'application/x-www-form-urlencoded', ''), path).map(([type, target]) => withHeaders([auth, ['Content-Type', type]], target)),
    path.map((target) => withHeaders([auth], target)),
    fc
      .tuple(fc.oneof(fc.constantFrom('', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', `bearer${apiKey}`, `Bearer ${apiKey}x`, `Bearer ${apiKey} extra`), fc.string({ maxLength: 80 }).map((s) => `Bearer ${s}`)), path)
      .filter(([value]) => value !== `Bearer ${apiKey}`)
      .map(([value, target]) => withHeaders([['Authorization', value], JSON_TYPE], target)),
    path.map((target) => withHeaders([JSON_TYPE], target)),
    fc
      .tuple(fc.oneof(fc.constant(''), fc.constant('""'), fc.string({ minLength: 256, maxLength: 400 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'k')), withControl(0, 40), withObsText), path)
      .map(([key, target]) => withHeaders([auth, JSON_TYPE, ['Idempotency-Key', key]], target)),
    fc.tuple(fc.uuid(), fc.uuid(), path).map(([first, second, target]) => withHeaders([auth, JSON_TYPE, ['Idempotency-Key', first], ['Idempotency-Key', second]], target)),
    fc.tuple(fc.constantFrom('X-Odd', 'Accept', 'User-Agent'), withControl(0, 30), path).map(([name, value, target]) => withHeaders([auth, JSON_TYPE, [name, value]], target)),
    fc.tuple(fc.stringMatching(/^[!-~][ -~]{0,19}$/).filter((name) => /[^!#$%&'*+\-.^_`|~0-9A-Za-z]/.test(name) && !name.includes(':')), path).map(([name, target]) => withHeaders([auth, JSON_TYPE, [name, 'x']], target)),
    fc.tuple(fc.integer({ min: 17_000, max: 100_000 }), path).map(([length, target]) => withHeaders([auth, JSON_TYPE, ['X-Padding', 'p'.repeat(length)]], target)),
    fc.tuple(fc.constantFrom('foo', '200-ok', '100-continued', 'continue'), path).map(([expect, target]) => withHeaders([auth, JSON_TYPE, ['Expect', expect]], target)),
    path.map((target) => withHeaders([auth, JSON_TYPE, ['Transfer-Encoding', 'chunked']], target)),
  );
}

/** Ids no task or assessment has: random text, raw and percent-encoded bytes, traversal, huge. */
const badId: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 60 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map(encodeURIComponent),
  fc.uint8Array({ minLength: 1, maxLength: 20 }).map((bytes) => [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')),
  fc.constantFrom('%', '%zz', '%C0%AF', '%E0%80', '..', '..%2F..%2Fetc%2Fpasswd', '%00', 'task_', 'asmt_', '__proto__', 'constructor', 'task_%2F..', ';', ',', '*'),
  fc.stringMatching(/^(task|asmt)_[0-9A-HJKMNP-TV-Z]{26}$/),
  fc.integer({ min: 1_000, max: 12_000 }).map((length) => 'task_'.padEnd(length, 'Z')),
);

/** Reads and cancels of ids that do not exist, and methods the routes do not have. */
function badPaths(apiKey: string): fc.Arbitrary<RawRequest> {
  const auth: [string, string] = ['Authorization', `Bearer ${apiKey}`];
  return fc.oneof(
    fc.tuple(fc.constantFrom(TASKS, ASSESSMENTS), badId).map(([base, id]) => ({ method: 'GET', target: `${base}/${id}`, headers: [auth] })),
    badId.map((id) => ({ method: 'POST', target: `${TASKS}/${id}/cancel`, headers: [auth] })),
    fc.tuple(fc.constantFrom('PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'), fc.constantFrom(TASKS, ASSESSMENTS, `${TASKS}/task_x`, `${TASKS}/task_x/cancel`)).map(([method, target]) => ({ method, target, headers: [auth] })),
    fc.constantFrom(`${TASKS}/`, '/v1/ai', '/v1', '/', '//', `${TASKS}//cancel`).map((target) => ({ method: 'GET', target, headers: [auth] })),
    fc.tuple(fc.constantFrom(TASKS, ASSESSMENTS), fc.string({ maxLength: 40 })).map(([base, query]) => ({ method: 'GET', target: `${base}/missing?${encodeURIComponent(query)}`, headers: [auth] })),
  );
}

const LIST_PARAMETERS = ['limit', 'cursor', 'status', 'created_after', 'created_before'];
const STATUSES: readonly string[] = [...TASK_STATUSES, ...ASSESSMENT_STATUSES];

/** List queries with one parameter wrong: out of range, unknown, repeated, or a cursor the API never issued. */
function badListQueries(apiKey: string): fc.Arbitrary<RawRequest> {
  const auth: [string, string] = ['Authorization', `Bearer ${apiKey}`];
  const parameter = fc.oneof(
    fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 101 }), fc.double({ min: 1.1, max: 99.9 }).filter((n) => !Number.isInteger(n)), fc.constantFrom('', 'abc', 'Infinity', 'NaN', '1e9', '-0')).map((limit) => `limit=${encodeURIComponent(String(limit))}`),
    fc.string({ maxLength: 20 }).filter((status) => !STATUSES.includes(status)).map((status) => `status=${encodeURIComponent(status)}`),
    fc.tuple(fc.constantFrom('created_after', 'created_before'), fc.string({ maxLength: 30 })).map(([name, value]) => `${name}=${encodeURIComponent(value)}`),
    fc.oneof(fc.string({ minLength: 1, maxLength: 60 }), fc.uint8Array({ minLength: 1, maxLength: 60 }).map((bytes) => Buffer.from(bytes).toString('base64url'))).map((cursor) => `cursor=${encodeURIComponent(cursor)}`),
    fc.tuple(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ minLength: 1, maxLength: 20 })).filter((name) => !LIST_PARAMETERS.includes(name)), fc.string({ maxLength: 10 })).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`),
    fc.constantFrom('limit=1&limit=2', 'status=failed&status=queued', 'cursor=a&cursor=b'),
  );
  return fc.tuple(fc.constantFrom(TASKS, ASSESSMENTS), parameter).map(([path, query]) => ({ method: 'GET', target: `${path}?${query}`, headers: [auth] }));
}

/** Every kind of bad request, weighted so the cheap ones make the bulk and the huge ones still appear. */
export function badRequest(apiKey: string): fc.Arbitrary<BadRequest> {
  const tagged = (category: string, arbitrary: fc.Arbitrary<RawRequest>) => arbitrary.map((request) => ({ category, request }));
  return fc.oneof(
    { weight: 6, arbitrary: tagged('task body', badTaskBody.map((body) => post(TASKS, apiKey, body))) },
    { weight: 5, arbitrary: tagged('assessment body', badAssessmentBody.map((body) => post(ASSESSMENTS, apiKey, body))) },
    { weight: 3, arbitrary: tagged('broken bytes', fc.oneof(brokenBytes(VALID_TASK_BODY, 'The council').map((body) => post(TASKS, apiKey, body)), brokenBytes(VALID_ASSESSMENT_BODY, 'Shop').map((body) => post(ASSESSMENTS, apiKey, body)))) },
    { weight: 4, arbitrary: tagged('odd headers', oddHeaders(apiKey)) },
    { weight: 4, arbitrary: tagged('bad path or method', badPaths(apiKey)) },
    { weight: 2, arbitrary: tagged('bad list query', badListQueries(apiKey)) },
  );
}
