import { Module } from '@nestjs/common';
import { ListingModule } from '../listing/listing.module';
import { ReviewIndexModule } from '../review-index/review-index.module';
import { StorageModule } from '../storage/storage.module';
import { TemporalModule } from '../temporal/temporal.module';
import { ReviewController } from './review.controller';
import { ReviewQueue } from './review-queue';
import { ReviewService } from './review.service';
import { ReviewerSight } from './reviewer-sight';

@Module({
  imports: [TemporalModule, ListingModule, ReviewIndexModule, StorageModule],
  controllers: [ReviewController],
  providers: [ReviewService, ReviewQueue, ReviewerSight],
})
export class ReviewModule {}
