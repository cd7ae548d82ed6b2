import type { ApiOperation } from '../openapi/api-operation';
import { livenessSchema, readinessSchema } from './health.schemas';

/** Probes for load balancers and orchestrators; HealthController serves them without an API key. */
export const HEALTH_ROUTES = {
  liveness: {
    method: 'get',
    path: '/healthz',
    operationId: 'getLiveness',
    tag: 'Operations',
    public: true,
    summary: 'Liveness',
    description: 'The process is up and serving HTTP. It does not look at Temporal or the key store, so a restart never follows from their outage.',
    responses: [{ status: 200, description: 'Alive.', body: { name: 'Liveness', schema: livenessSchema }, example: { status: 'ok' } }],
    errors: [],
  },
  readiness: {
    method: 'get',
    path: '/readyz',
    operationId: 'getReadiness',
    tag: 'Operations',
    public: true,
    summary: 'Readiness',
    description: 'Temporal answers for both namespaces and the key store answers a query, each within 2 s. Route traffic only to instances that answer 200; a shutting-down instance answers 503.',
    responses: [{ status: 200, description: 'Ready.', body: { name: 'Readiness', schema: readinessSchema }, example: { status: 'ready', checks: { temporal: 'ok', key_store: 'ok' } } }],
    errors: ['SERVICE_UNAVAILABLE'],
  },
} satisfies Record<string, ApiOperation>;
