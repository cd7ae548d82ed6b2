import { Module } from '@nestjs/common';
import { ErasureModule } from '../platform/erasure/erasure.module';
import { ListingModule } from '../platform/listing/listing.module';
import { ReviewIndexModule } from '../review/review-index.module';
import { TemporalModule } from '../platform/temporal/temporal.module';
import { WaitsModule } from '../platform/waits/waits.module';
import { StorageModule } from '../platform/storage/storage.module';
import { AssessmentRevisions } from './assessment-revisions';
import { AssessmentWorkflowReader } from './assessment-workflow-reader';
import { AssessmentsController } from './assessments.controller';
import { AssessmentsService } from './assessments.service';

@Module({
  imports: [TemporalModule, ErasureModule, ListingModule, WaitsModule, ReviewIndexModule, StorageModule],
  controllers: [AssessmentsController],
  providers: [AssessmentsService, AssessmentWorkflowReader, AssessmentRevisions],
})
export class AssessmentsModule {}
