import { Module } from '@nestjs/common';
import { AppConfig } from '../../../common/config/app-config';
import { cursorKeyRing } from './cursor-key-ring';
import { ListCursors } from './list-cursor';

/** One ListCursors for the process, so every list endpoint signs and verifies with the same keys. */
@Module({
  providers: [{ provide: ListCursors, inject: [AppConfig], useFactory: (config: AppConfig) => new ListCursors(cursorKeyRing(config.keyRing)) }],
  exports: [ListCursors],
})
export class ListingModule {}
