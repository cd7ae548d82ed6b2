import { Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../../common/config/app-config';
import { KeyAuthenticator } from './key-authenticator';
import { KeyStore } from '../../../common/storage/key-store';
import { StorageModule } from '../storage/storage.module';
import { KeyUsageRecorder } from './key-usage-recorder';
import { ReviewerStore } from '../../../common/storage/reviewer-store';
import { ReviewerAuthenticator } from '../reviewers/reviewer-authenticator';
import { ConsoleSessionStore } from '../../../common/storage/console-session-store';
import { ConsoleSessions } from '../credentials/console-sessions';
import { FailedCredentialThrottle } from '../../../common/credentials/failed-credential-throttle';
import { RequestAuthenticator } from '../http/request-authenticator';

const logger = new Logger('KeyUsage');

@Module({
  imports: [StorageModule],
  providers: [
    {
      provide: KeyUsageRecorder,
      inject: [KeyStore],
      useFactory: (store: KeyStore) =>
        new KeyUsageRecorder(store, (error) => logger.warn(`could not record key use: ${error instanceof Error ? error.message : String(error)}`)),
    },
    {
      provide: KeyAuthenticator,
      inject: [KeyStore, AppConfig, KeyUsageRecorder],
      useFactory: (store: KeyStore, config: AppConfig, usage: KeyUsageRecorder) =>
        new KeyAuthenticator(store, config.values.API_KEY_BRAND, config.values.KEY_CACHE_TTL_MS, { usage }),
    },
    {
      provide: ReviewerAuthenticator,
      inject: [ReviewerStore, AppConfig],
      useFactory: (store: ReviewerStore, config: AppConfig) => new ReviewerAuthenticator(store, config.values.API_KEY_BRAND, config.values.KEY_CACHE_TTL_MS),
    },
    {
      provide: ConsoleSessions,
      inject: [ConsoleSessionStore, KeyAuthenticator, ReviewerAuthenticator],
      useFactory: (store: ConsoleSessionStore, keys: KeyAuthenticator, reviewers: ReviewerAuthenticator) => new ConsoleSessions(store, keys, reviewers),
    },
    { provide: FailedCredentialThrottle, useFactory: () => new FailedCredentialThrottle() },
    RequestAuthenticator,
  ],
  exports: [KeyAuthenticator, ReviewerAuthenticator, ConsoleSessions, RequestAuthenticator, StorageModule],
})
export class KeysModule implements OnApplicationShutdown {
  constructor(@Inject(KeyUsageRecorder) private readonly usage: KeyUsageRecorder) {}

  async onApplicationShutdown(): Promise<void> {
    await this.usage.close();
  }
}
