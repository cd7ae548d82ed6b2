import { Module } from '@nestjs/common';
import { ListingModule } from '../platform/listing/listing.module';
import { ReviewIndexModule } from './review-index.module';
import { StorageModule } from '../platform/storage/storage.module';
import { TemporalModule } from '../platform/temporal/temporal.module';
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
