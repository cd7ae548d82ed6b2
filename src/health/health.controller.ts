import { Controller, Get } from '@nestjs/common';
import { PublicRoute } from '../http/auth.guard';

@Controller()
export class HealthController {
  /** Liveness of the process only; it must answer even when Temporal is down. */
  @PublicRoute()
  @Get('healthz')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
