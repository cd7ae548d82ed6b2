import { Global, Module } from '@nestjs/common';
import { TemporalModule } from '../temporal/temporal.module';
import { CreateLimitLender } from '../http/rate-limit.guard';
import { AdmissionGuard } from './admission.guard';
import { OrganisationCreateRates } from './organisation-create-rates';
import { QueueBacklog } from './queue-backlog';
import { SpareCapacityLender } from './spare-capacity-lender';

/** One view of the queue, of who creates what and of the capacity nobody uses, per API instance, for every @Admitted() and @RateLimited() route. */
@Global()
@Module({
  imports: [TemporalModule],
  providers: [QueueBacklog, OrganisationCreateRates, AdmissionGuard, SpareCapacityLender, { provide: CreateLimitLender, useExisting: SpareCapacityLender }],
  exports: [QueueBacklog, OrganisationCreateRates, AdmissionGuard, CreateLimitLender],
})
export class AdmissionModule {}
