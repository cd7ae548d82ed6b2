import { CamelCasePlugin, Kysely } from 'kysely';
import type { AppConfig } from '../config/app-config';
import { SecretSealer } from '../crypto/secret-sealer';
import { KeyStore } from './key-store';
import { migrateToLatest } from './migrations';
import { ConsoleSessionStore } from './console-session-store';
import { ProviderSlotStore } from './provider-slot-store';
import { ReviewerStore } from './reviewer-store';
import { UsageStore } from './usage-store';
import { BatchItemStore } from './batch-item-store';
import { AssessmentIndexStore } from './assessment-index-store';
import { AssessmentRevisionStore } from './assessment-revision-store';
import { ApiEncryptionReportStore } from './api-encryption-report-store';
import { postgresDialect } from './postgres-dialect';
import { sqliteDialect } from './sqlite-dialect';
import type { Tables } from './tables';
import { WebhookStore } from './webhook-store';

/** A process's one database handle and the stores over it; also the DI token in the API. */
export class Storage {
  readonly keys: KeyStore;
  readonly webhooks: WebhookStore;
  readonly reviewers: ReviewerStore;
  readonly consoleSessions: ConsoleSessionStore;
  readonly providerSlots: ProviderSlotStore;
  readonly usage: UsageStore;
  readonly batchItems: BatchItemStore;
  readonly assessmentIndex: AssessmentIndexStore;
  readonly assessmentRevisions: AssessmentRevisionStore;
  readonly apiEncryption: ApiEncryptionReportStore;

  private constructor(
    private readonly db: Kysely<Tables>,
    sealer: SecretSealer,
  ) {
    this.keys = new KeyStore(db);
    this.webhooks = new WebhookStore(db, sealer);
    this.reviewers = new ReviewerStore(db);
    this.consoleSessions = new ConsoleSessionStore(db);
    this.providerSlots = new ProviderSlotStore(db);
    this.usage = new UsageStore(db);
    this.batchItems = new BatchItemStore(db, sealer);
    this.assessmentIndex = new AssessmentIndexStore(db);
    this.assessmentRevisions = new AssessmentRevisionStore(db);
    this.apiEncryption = new ApiEncryptionReportStore(db);
  }

  /**
   * PostgreSQL when DATABASE_URL is set (several API instances share it), else the SQLite file in
   * DATA_DIR. Migrated before it returns.
   */
  static async open(config: AppConfig): Promise<Storage> {
    const url = config.values.DATABASE_URL;
    const db = new Kysely<Tables>({
      dialect: url ? postgresDialect(url) : sqliteDialect(config.keyDatabasePath),
      plugins: [new CamelCasePlugin()],
    });
    try {
      await migrateToLatest(db, url ? 'postgres' : 'sqlite');
      return new Storage(db, new SecretSealer(config.keyRing));
    } catch (error) {
      await db.destroy();
      throw error;
    }
  }

  /** Idempotent; queries through either store fail afterwards. */
  async close(): Promise<void> {
    await this.db.destroy();
  }
}
