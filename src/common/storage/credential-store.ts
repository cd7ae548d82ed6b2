import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { AuditDetails, Tables } from './tables';

/** The tables holding a kind's credentials: each has id, hash and created_at; a later kind adds its table here. */
export type CredentialTable = 'apiKeys' | 'reviewerCredentials';

/**
 * What the stores of every credential kind share: finding a credential by hash (authentication)
 * and by id, listing them, and reading and writing the audit log's JSON details. Each kind's store
 * adds its writes (a key's rotation, a reviewer name's uniqueness) and maps its rows.
 *
 * Conditions name their column with sql.ref: on a table left generic, Kysely cannot work out the
 * type of a column's value, so `.where('id', '=', id)` does not type-check here. The SQL is the same.
 */
export abstract class CredentialStore<Table extends CredentialTable, Row, Stored> {
  protected constructor(
    protected readonly db: Kysely<Tables>,
    /** `SELECT * FROM` the kind's table. */
    private readonly rows: () => SelectQueryBuilder<Tables, Table, Row>,
    private readonly fromRow: (row: Row) => Stored,
  ) {}

  async findByHash(hash: Buffer): Promise<Stored | undefined> {
    const row = await this.rows().where(sql.ref('hash'), '=', hash).executeTakeFirst();
    return row && this.fromRow(row);
  }

  async findById(id: string): Promise<Stored | undefined> {
    const row = await this.rows().where(sql.ref('id'), '=', id).executeTakeFirst();
    return row && this.fromRow(row);
  }

  /** Every credential created at or after `since` (all of them without it), revoked or not. */
  async createdSince(since?: string): Promise<Stored[]> {
    const rows = await (since === undefined ? this.rows() : this.rows().where(sql.ref('createdAt'), '>=', since)).execute();
    return rows.map(this.fromRow);
  }

  async list(): Promise<Stored[]> {
    const rows = await this.rows().orderBy('createdAt').orderBy('id').execute();
    return rows.map(this.fromRow);
  }

  /** The newest `limit` entries of `log` (the kind's audit table, perhaps narrowed), oldest first. */
  protected async readAuditLog<Log extends keyof Tables, LogRow extends { id: number; details: string }>(log: SelectQueryBuilder<Tables, Log, LogRow>, limit: number) {
    const newest = log.orderBy('id', 'desc').limit(limit);
    const rows = await this.db.selectFrom(newest.as('newest')).selectAll().orderBy('id').execute();
    return rows.map(({ details, ...entry }) => ({ ...entry, details: JSON.parse(details) as AuditDetails }));
  }
}

/** An audit entry as its table holds it: the details as JSON text. */
export function toAuditRow<Entry extends { details: AuditDetails }>({ details, ...entry }: Entry): Omit<Entry, 'details'> & { details: string } {
  return { ...entry, details: JSON.stringify(details) };
}
