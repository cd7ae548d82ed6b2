import { Controller, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error';
import { ApiRoute } from '../http/api-route';
import { HEALTH_ROUTES } from './health.routes';
import { ReadinessProbe, type ReadinessReport } from './readiness-probe';

@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessProbe) {}

  /** Liveness of the process only; it must answer even when Temporal is down, so an outage never causes restarts. */
  @ApiRoute(HEALTH_ROUTES.liveness)
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: 503 naming the failed dependencies, so a load balancer sends traffic elsewhere. */
  @ApiRoute(HEALTH_ROUTES.readiness)
  async readyz(@Req() request: FastifyRequest): Promise<{ status: 'ready'; checks: ReadinessReport['checks'] }> {
    const report = await this.readiness.check();
    if (report.ready) return { status: 'ready', checks: report.checks };
    request.log.warn({ checks: report.checks, errors: report.errors }, 'not ready');
    const failed = Object.entries(report.checks).flatMap(([name, result]) => (result === 'failed' ? [name] : []));
    throw new ApiError(503, 'SERVICE_UNAVAILABLE', `Not ready: ${failed.join(' and ')} unreachable`, { 'retry-after': '5' });
  }
}
