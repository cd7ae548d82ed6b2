import { Module } from '@nestjs/common';
import { ErasureModule } from '../erasure/erasure.module';
import { ListingModule } from '../listing/listing.module';
import { ReviewIndexModule } from '../review-index/review-index.module';
import { TemporalModule } from '../temporal/temporal.module';
import { WaitsModule } from '../waits/waits.module';
import { StorageModule } from '../storage/storage.module';
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
