import { Module } from '@nestjs/common';
import { StorageModule } from '../platform/storage/storage.module';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';

@Module({ imports: [StorageModule], controllers: [UsageController], providers: [UsageService] })
export class UsageModule {}
