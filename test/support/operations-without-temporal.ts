// What these serve is the process's own (probes, documents, the console, the models) or the
// database's (webhook endpoints and their log, usage, console sessions, the reviewer): they answer
// as usual while Temporal cannot be reached. Every other operation, one added later included,
// needs Temporal and must answer 503 with Retry-After. Held by the tests that take Temporal away:
// test/integration/api/temporal-unavailable.test.ts (never started) and
// test/e2e/temporal-outage.test.ts (stopped mid-load).
export const ANSWERED_WITHOUT_TEMPORAL: ReadonlySet<string> = new Set([
  'GET /healthz',
  'GET /metrics',
  'GET /openapi.json',
  'GET /docs',
  'GET /console',
  'GET /console/assets/{asset}',
  'POST /console/session',
  'GET /console/session',
  'DELETE /console/session',
  'GET /v1/models',
  'GET /v1/usage',
  'GET /v1/review/me',
  'POST /v1/webhook-endpoints',
  'GET /v1/webhook-endpoints',
  'GET /v1/webhook-endpoints/{endpoint_id}',
  'DELETE /v1/webhook-endpoints/{endpoint_id}',
  'POST /v1/webhook-endpoints/{endpoint_id}/rotate-secret',
  'GET /v1/webhook-endpoints/{endpoint_id}/deliveries',
  'POST /v1/webhook-endpoints/{endpoint_id}/enable',
]);
