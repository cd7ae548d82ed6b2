import { Module } from '@nestjs/common';
import { SubmittedArchitectures } from './submitted-architectures';
import { StorageModule } from '../platform/storage/storage.module';
import { TemporalModule } from '../platform/temporal/temporal.module';
import { AssessmentIndex } from './assessment-index';
import { AssessmentIndexCatchUp } from './assessment-index-catch-up';

/** The review index and the cache of submitted architectures: one of each per process, written by creates and erasures, read by the review. */
@Module({
  imports: [TemporalModule, StorageModule],
  providers: [AssessmentIndex, AssessmentIndexCatchUp, { provide: SubmittedArchitectures, useFactory: () => new SubmittedArchitectures() }],
  exports: [AssessmentIndex, SubmittedArchitectures],
})
export class ReviewIndexModule {}
