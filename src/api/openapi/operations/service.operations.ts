import type { ApiOperation } from '../api-operation';
import { livenessSchema, readinessSchema } from '../schemas/common.schemas';

const TAG = 'Operations';

/** Routes for operators and tooling; none needs an API key. */
export const SERVICE_OPERATIONS: ApiOperation[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'getLiveness',
    tag: TAG,
    public: true,
    summary: 'Liveness',
    description: 'The process is up and serving HTTP. It does not look at Temporal or the key store, so a restart never follows from their outage.',
    responses: [{ status: 200, description: 'Alive.', body: { name: 'Liveness', schema: livenessSchema }, example: { status: 'ok' } }],
    errors: [],
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'getReadiness',
    tag: TAG,
    public: true,
    summary: 'Readiness',
    description: 'Temporal answers for both namespaces and the key store answers a query, each within 2 s. Route traffic only to instances that answer 200; a shutting-down instance answers 503.',
    responses: [{ status: 200, description: 'Ready.', body: { name: 'Readiness', schema: readinessSchema }, example: { status: 'ready', checks: { temporal: 'ok', key_store: 'ok' } } }],
    errors: ['SERVICE_UNAVAILABLE'],
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    tag: TAG,
    public: true,
    summary: 'Prometheus metrics',
    description:
      'HTTP latency by method, route template and status (assay_http_request_duration_seconds), tasks created by type (assay_tasks_created_total) and Node.js process metrics. Labels carry no organisation or key. Block it at the edge if the API is public.',
    responses: [{ status: 200, description: 'Prometheus text exposition format.', media: { contentType: 'text/plain; version=0.0.4', description: 'Prometheus text format' } }],
    errors: [],
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: TAG,
    public: true,
    summary: 'This OpenAPI 3.1 document',
    description: 'Generated at start from the route descriptions and the zod schemas the API validates with.',
    responses: [{ status: 200, description: 'The document.', media: { contentType: 'application/json', description: 'OpenAPI 3.1' } }],
    errors: [],
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'getDocsPage',
    tag: TAG,
    public: true,
    summary: 'API reference page',
    description: 'This document as one self-contained HTML page: no scripts, no external assets.',
    responses: [{ status: 200, description: 'The page.', media: { contentType: 'text/html', description: 'HTML' } }],
    errors: [],
  },
];
