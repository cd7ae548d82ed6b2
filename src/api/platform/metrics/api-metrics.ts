import { Injectable } from '@nestjs/common';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// A GET answers in milliseconds; a create with Prefer: wait may hold for up to 60 s.
const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The API process's Prometheus metrics. A registry per application rather than prom-client's
 * global one, so several apps in one process (the tests) never collide. No label carries an
 * organisation, a key or a resource id: cardinality stays bounded and scrapes leak nothing.
 */
@Injectable()
export class ApiMetrics {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'assay_http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  readonly tasksCreated = new Counter({
    name: 'assay_tasks_created_total',
    help: 'AI tasks created (idempotent replays not counted), by task type',
    labelNames: ['task_type'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}
