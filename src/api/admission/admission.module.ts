import { Global, Module } from '@nestjs/common';
import { TemporalModule } from '../temporal/temporal.module';
import { AdmissionGuard } from './admission.guard';
import { OrganisationCreateRates } from './organisation-create-rates';
import { QueueBacklog } from './queue-backlog';

/** One view of the queue and of who creates what per API instance, for every @Admitted() route. */
@Global()
@Module({
  imports: [TemporalModule],
  providers: [QueueBacklog, OrganisationCreateRates, AdmissionGuard],
  exports: [QueueBacklog, OrganisationCreateRates, AdmissionGuard],
})
export class AdmissionModule {}
