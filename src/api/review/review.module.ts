import { Module } from '@nestjs/common';
import { TemporalModule } from '../temporal/temporal.module';
import { ReviewController } from './review.controller';
import { ReviewService } from './review.service';

@Module({
  imports: [TemporalModule],
  controllers: [ReviewController],
  providers: [ReviewService],
})
export class ReviewModule {}
