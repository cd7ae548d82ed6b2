import { Controller, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiRoute } from '../http/api-route';
import { ApiMetrics } from './api-metrics';
import { METRICS_ROUTES } from './metrics.routes';

/**
 * Prometheus scrapes /metrics on the API port without a key: Prometheus holds no customer key,
 * and no label names an organisation or a key. Deployments that expose the API publicly block
 * the path at their edge (docs/operations.md, Metrics).
 */
@Controller()
export class MetricsController {
  constructor(private readonly metrics: ApiMetrics) {}

  @ApiRoute(METRICS_ROUTES.scrape)
  async scrape(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    void reply.header('content-type', this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}
