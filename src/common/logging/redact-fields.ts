/**
 * Fields whose values are never written, at any depth of a log entry: credentials, and what a
 * customer sent or got back (task input and text, summaries, graphs, review notes, webhook bodies,
 * workflow and activity arguments and results). Their names stay, so a line still says that
 * something was there.
 */
const NEVER_LOGGED = new Set([
  'authorization',
  'cookie',
  'key',
  'apikey',
  'api_key',
  'secret',
  'password',
  'token',
  'input',
  'text',
  'body',
  'output',
  'summary',
  'findings',
  'graph',
  'components',
  'links',
  'notes',
  'payload',
  'args',
  'result',
]);

const REDACTED = '[redacted]';

// Deeper structures are cut rather than walked: a log entry that deep is a mistake anyway.
const MAX_DEPTH = 8;

/** A copy of a log entry's fields with every never-logged field's value replaced. */
export function redactFields(fields: Record<string, unknown>): Record<string, unknown> {
  return redactObject(fields, 0);
}

function redactObject(object: Record<string, unknown>, depth: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(object)) copy[name] = NEVER_LOGGED.has(name.toLowerCase()) ? REDACTED : redactValue(value, depth + 1);
  return copy;
}

// Only plain data is walked: instances (a request, an error) keep their prototype for pino's
// serializers, which pick the few fields worth logging; the final scrub still covers them.
function redactValue(value: unknown, depth: number): unknown {
  if (Array.isArray(value)) return depth > MAX_DEPTH ? REDACTED : value.map((item) => redactValue(item, depth + 1));
  if (!isPlainObject(value)) return value;
  return depth > MAX_DEPTH ? REDACTED : redactObject(value, depth);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
