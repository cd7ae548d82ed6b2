import { Module } from '@nestjs/common';
import { StorageModule } from '../storage/storage.module';
import { TasksModule } from '../tasks/tasks.module';
import { TemporalModule } from '../temporal/temporal.module';
import { BatchesController } from './batches.controller';
import { BatchesService } from './batches.service';

@Module({ imports: [TemporalModule, StorageModule, TasksModule], controllers: [BatchesController], providers: [BatchesService] })
export class BatchesModule {}
