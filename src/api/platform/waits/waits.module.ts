import { Module } from '@nestjs/common';
import { TemporalModule } from '../temporal/temporal.module';
import { PollPacing } from './poll-pacing';
import { PreferWaits } from './prefer-waits';
import { WaitPermits } from './wait-permits';

/** One set of wait permits and one poll pacing per API instance, shared by every route that honours `Prefer: wait`. */
@Module({
  imports: [TemporalModule],
  providers: [WaitPermits, PollPacing, PreferWaits],
  exports: [PreferWaits],
})
export class WaitsModule {}
