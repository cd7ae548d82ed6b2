import type { ApiOperation } from '../openapi/api-operation';

/** Prometheus' scrape target; MetricsController serves it without an API key. */
export const METRICS_ROUTES = {
  scrape: {
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    tag: 'Operations',
    public: true,
    summary: 'Prometheus metrics',
    description:
      'HTTP latency by method, route template and status (assay_http_request_duration_seconds), tasks created by type (assay_tasks_created_total) and Node.js process metrics. Labels carry no organisation or key. Block it at the edge if the API is public.',
    responses: [{ status: 200, description: 'Prometheus text exposition format.', media: { contentType: 'text/plain; version=0.0.4', description: 'Prometheus text format' } }],
    errors: [],
  },
} satisfies Record<string, ApiOperation>;
