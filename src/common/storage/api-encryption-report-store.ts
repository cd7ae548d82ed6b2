import type { Kysely } from 'kysely';
import type { ApiEncryptionReport, Tables } from './tables';

/**
 * What the API instance that started last does with production data, as it said on starting: the
 * deployment's answer to `assay keys issue --env live`, which runs elsewhere, with an environment of
 * its own. The instances of one deployment run with the same settings, so the last one speaks for all.
 */
export class ApiEncryptionReportStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async record(report: ApiEncryptionReport): Promise<void> {
    await this.db
      .insertInto('apiEncryptionReport')
      .values({ id: 1, ...report })
      .onConflict((conflict) => conflict.column('id').doUpdateSet(report))
      .execute();
  }

  /** Undefined until an API has started on this database. */
  latest(): Promise<ApiEncryptionReport | undefined> {
    return this.db.selectFrom('apiEncryptionReport').select(['productionData', 'reportedAt']).executeTakeFirst();
  }
}
