import { Injectable, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { AppConfig } from '../../../common/config/app-config';
import { ApiError } from '../http/api-error';
import type { AuthenticatedRequest } from '../http/request-authenticator';
import { OrganisationCreateRates } from './organisation-create-rates';
import { QueueBacklog } from './queue-backlog';

const MAX_RETRY_AFTER_SECONDS = 30;

/**
 * Admission past capacity. Creates beyond what the workers drain do not make anything sooner: they
 * take the writes and the CPU that finishing the work already accepted needs (measured: offered
 * twice capacity, completions fell to a third of it). So once the oldest task on the shared queue
 * has waited longer than ADMISSION_MAX_QUEUE_SECONDS for a worker, the organisations creating the
 * most (at least the mean of those creating lately, on this instance) are answered 429 with a
 * Retry-After, while an organisation creating less than that is still admitted: fair dispatch
 * already serves its tasks ahead of the others' backlog.
 */
@Injectable()
export class AdmissionGuard implements CanActivate {
  private readonly maxQueueSeconds: number;

  constructor(
    config: AppConfig,
    private readonly backlog: QueueBacklog,
    private readonly rates: OrganisationCreateRates,
  ) {
    this.maxQueueSeconds = config.values.ADMISSION_MAX_QUEUE_SECONDS;
  }

  canActivate(context: ExecutionContext): boolean {
    const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().caller;
    if (!caller) throw new Error('@Admitted() is for authenticated routes only');
    if (this.maxQueueSeconds === 0) return true;
    const holder = `${caller.environment}/${caller.organizationId}`;
    this.rates.record(holder);
    const ageSeconds = this.backlog.ageSeconds(caller.environment);
    if (ageSeconds === undefined || ageSeconds <= this.maxQueueSeconds || !this.rates.isAmongBusiest(holder)) return true;
    const retryAfter = retryAfterSeconds(ageSeconds - this.maxQueueSeconds);
    throw new ApiError(429, 'RATE_LIMITED', `The service is at capacity (work waits ${Math.round(ageSeconds)} s for a worker); retry in ${retryAfter} s`, {
      'retry-after': String(retryAfter),
    });
  }
}

// Spread: clients refused in the same second must not all come back in the same second.
function retryAfterSeconds(overSeconds: number): number {
  const base = Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(overSeconds)));
  return Math.min(MAX_RETRY_AFTER_SECONDS, base + Math.floor(Math.random() * (base / 2 + 1)));
}

/**
 * Puts a create route under admission (ADMISSION_MAX_QUEUE_SECONDS). Written below @RateLimited()
 * it runs first, so a create refused here spends none of the caller's create limits.
 */
export const Admitted = () => UseGuards(AdmissionGuard);
