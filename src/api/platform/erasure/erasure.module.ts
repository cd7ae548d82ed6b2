import { Module } from '@nestjs/common';
import { StorageModule } from '../storage/storage.module';
import { TemporalModule } from '../temporal/temporal.module';
import { WorkflowEraser } from './workflow-eraser';

@Module({
  imports: [TemporalModule, StorageModule],
  providers: [WorkflowEraser],
  exports: [WorkflowEraser],
})
export class ErasureModule {}
