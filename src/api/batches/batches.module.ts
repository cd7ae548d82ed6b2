import { Module } from '@nestjs/common';
import { StorageModule } from '../platform/storage/storage.module';
import { TasksModule } from '../tasks/tasks.module';
import { TemporalModule } from '../platform/temporal/temporal.module';
import { BatchesController } from './batches.controller';
import { BatchesService } from './batches.service';

@Module({ imports: [TemporalModule, StorageModule, TasksModule], controllers: [BatchesController], providers: [BatchesService] })
export class BatchesModule {}
