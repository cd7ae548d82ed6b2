import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { KeyAuthenticator } from './key-authenticator';
import { KeyStore } from './key-store';
import { SqliteKeyStore } from './sqlite-key-store';

@Module({
  providers: [
    { provide: KeyStore, inject: [AppConfig], useFactory: (config: AppConfig) => new SqliteKeyStore(config.keyDatabasePath) },
    {
      provide: KeyAuthenticator,
      inject: [KeyStore, AppConfig],
      useFactory: (store: KeyStore, config: AppConfig) =>
        new KeyAuthenticator(store, config.values.API_KEY_BRAND, config.values.KEY_CACHE_TTL_MS),
    },
  ],
  exports: [KeyAuthenticator, KeyStore],
})
export class KeysModule implements OnApplicationShutdown {
  constructor(@Inject(KeyStore) private readonly store: KeyStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
