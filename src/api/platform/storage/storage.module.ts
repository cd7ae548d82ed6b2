import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../../common/config/app-config';
import { productionDataHandling } from '../../../common/config/payload-encryption-check';
import { KeyStore } from '../../../common/storage/key-store';
import { ReviewerStore } from '../../../common/storage/reviewer-store';
import { ConsoleSessionStore } from '../../../common/storage/console-session-store';
import { Storage } from '../../../common/storage/storage';
import { UsageStore } from '../../../common/storage/usage-store';
import { BatchItemStore } from '../../../common/storage/batch-item-store';
import { AssessmentIndexStore } from '../../../common/storage/assessment-index-store';
import { AssessmentRevisionStore } from '../../../common/storage/assessment-revision-store';
import { WebhookStore } from '../../../common/storage/webhook-store';

/** As the API starts: the secrets sealed with its newest key, and what it does with production data said to the CLI (checkLiveKeyIssue). */
async function openAsTheApiStarts(config: AppConfig): Promise<Storage> {
  const storage = await Storage.open(config);
  await storage.webhooks.resealSecrets();
  await storage.apiEncryption.record({ productionData: productionDataHandling(config), reportedAt: new Date().toISOString() });
  return storage;
}

/**
 * The API process's one database handle and its stores. Modules using it shut down before it
 * (Nest ends importers first), so the key usage recorder can still write its last batch.
 */
@Module({
  providers: [
    { provide: Storage, inject: [AppConfig], useFactory: openAsTheApiStarts },
    { provide: KeyStore, inject: [Storage], useFactory: (storage: Storage) => storage.keys },
    { provide: WebhookStore, inject: [Storage], useFactory: (storage: Storage) => storage.webhooks },
    { provide: ReviewerStore, inject: [Storage], useFactory: (storage: Storage) => storage.reviewers },
    { provide: ConsoleSessionStore, inject: [Storage], useFactory: (storage: Storage) => storage.consoleSessions },
    { provide: UsageStore, inject: [Storage], useFactory: (storage: Storage) => storage.usage },
    { provide: BatchItemStore, inject: [Storage], useFactory: (storage: Storage) => storage.batchItems },
    { provide: AssessmentIndexStore, inject: [Storage], useFactory: (storage: Storage) => storage.assessmentIndex },
    { provide: AssessmentRevisionStore, inject: [Storage], useFactory: (storage: Storage) => storage.assessmentRevisions },
  ],
  exports: [KeyStore, WebhookStore, ReviewerStore, ConsoleSessionStore, UsageStore, BatchItemStore, AssessmentIndexStore, AssessmentRevisionStore],
})
export class StorageModule implements OnApplicationShutdown {
  constructor(@Inject(Storage) private readonly storage: Storage) {}

  async onApplicationShutdown(): Promise<void> {
    await this.storage.close();
  }
}
