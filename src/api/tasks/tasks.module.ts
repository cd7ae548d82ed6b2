import { Module } from '@nestjs/common';
import { ErasureModule } from '../platform/erasure/erasure.module';
import { ListingModule } from '../platform/listing/listing.module';
import { TemporalModule } from '../platform/temporal/temporal.module';
import { WaitsModule } from '../platform/waits/waits.module';
import { TaskWorkflowReader } from './task-workflow-reader';
import { TasksController } from './tasks.controller';
import { TasksService } from './tasks.service';

@Module({
  imports: [TemporalModule, ErasureModule, ListingModule, WaitsModule],
  controllers: [TasksController],
  providers: [TasksService, TaskWorkflowReader],
  exports: [TasksService],
})
export class TasksModule {}
