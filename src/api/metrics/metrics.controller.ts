import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PublicRoute } from '../http/auth.guard';
import { ApiMetrics } from './api-metrics';

/**
 * Prometheus scrapes /metrics on the API port without a key: Prometheus holds no customer key,
 * and no label names an organisation or a key. Deployments that expose the API publicly block
 * the path at their edge (docs/operations.md, Metrics).
 */
@Controller()
export class MetricsController {
  constructor(private readonly metrics: ApiMetrics) {}

  @PublicRoute()
  @Get('metrics')
  async scrape(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    void reply.header('content-type', this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}
