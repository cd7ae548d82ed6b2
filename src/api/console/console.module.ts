import { Module } from '@nestjs/common';
import { KeysModule } from '../platform/keys/keys.module';
import { ConsoleController } from './console.controller';

@Module({
  imports: [KeysModule],
  controllers: [ConsoleController],
})
export class ConsoleModule {}
