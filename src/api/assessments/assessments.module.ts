import { Module } from '@nestjs/common';
import { ErasureModule } from '../erasure/erasure.module';
import { ListingModule } from '../listing/listing.module';
import { ReviewIndexModule } from '../review-index/review-index.module';
import { TemporalModule } from '../temporal/temporal.module';
import { WaitsModule } from '../waits/waits.module';
import { AssessmentWorkflowReader } from './assessment-workflow-reader';
import { AssessmentsController } from './assessments.controller';
import { AssessmentsService } from './assessments.service';

@Module({
  imports: [TemporalModule, ErasureModule, ListingModule, WaitsModule, ReviewIndexModule],
  controllers: [AssessmentsController],
  providers: [AssessmentsService, AssessmentWorkflowReader],
})
export class AssessmentsModule {}
