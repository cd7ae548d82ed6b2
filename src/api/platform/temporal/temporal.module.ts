import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../../common/config/app-config';
import { TemporalClients } from './temporal-clients';

@Module({
  providers: [{ provide: TemporalClients, inject: [AppConfig], useFactory: (config: AppConfig) => TemporalClients.create(config) }],
  exports: [TemporalClients],
})
export class TemporalModule implements OnApplicationShutdown {
  constructor(@Inject(TemporalClients) private readonly clients: TemporalClients) {}

  async onApplicationShutdown(): Promise<void> {
    await this.clients.close();
  }
}
