import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { Tables } from './tables';

export type DatabaseKind = 'sqlite' | 'postgres';

/** The column types that differ between the two databases; everything else is written once. */
const COLUMN_TYPES = {
  sqlite: { timestamp: 'text', bytes: 'blob', json: 'text' },
  postgres: { timestamp: 'timestamptz', bytes: 'bytea', json: 'jsonb' },
} as const;

/**
 * Applied in name order; kysely_migration records which have run. Append only.
 *
 * The first two create what the releases before this layer created, with IF NOT EXISTS, so a
 * database from those releases is adopted as it is, data included, and they are recorded as run.
 * Those releases' own records (SQLite's PRAGMA user_version, key_store_migrations and
 * webhook_store_migrations) are left untouched, so going back to such a release still opens it.
 */
function migrations(kind: DatabaseKind): Record<string, Migration> {
  const types = COLUMN_TYPES[kind];
  return {
    '0001_keys': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('api_keys')
          .ifNotExists()
          .addColumn('id', 'text', (column) => column.primaryKey())
          .addColumn('organization_id', 'text', (column) => column.notNull())
          .addColumn('environment', 'text', (column) => column.notNull().check(sql`environment IN ('test', 'live')`))
          .addColumn('prefix', 'text', (column) => column.notNull())
          .addColumn('hash', types.bytes, (column) => column.notNull().unique())
          .addColumn('created_at', types.timestamp, (column) => column.notNull())
          .addColumn('revoked_at', types.timestamp)
          .addColumn('expires_at', types.timestamp)
          .addColumn('last_used_at', types.timestamp)
          .execute();
        // A SQLite file from the first release has api_keys without these two.
        const tables = await db.introspection.getTables();
        const existing = tables.find((table) => table.name === 'api_keys')?.columns.map((column) => column.name) ?? [];
        for (const column of ['expires_at', 'last_used_at'].filter((name) => !existing.includes(name))) {
          await db.schema.alterTable('api_keys').addColumn(column, types.timestamp).execute();
        }
        await db.schema
          .createTable('key_audit_log')
          .ifNotExists()
          .addColumn('id', kind === 'postgres' ? 'bigint' : 'integer', (column) =>
            kind === 'postgres' ? column.primaryKey().generatedAlwaysAsIdentity() : column.primaryKey().autoIncrement(),
          )
          .addColumn('at', types.timestamp, (column) => column.notNull())
          .addColumn('actor', 'text', (column) => column.notNull())
          .addColumn('action', 'text', (column) => column.notNull())
          .addColumn('key_id', 'text', (column) => column.notNull())
          .addColumn('org', 'text', (column) => column.notNull())
          .addColumn('env', 'text', (column) => column.notNull())
          .addColumn('details', types.json, (column) => column.notNull())
          .execute();
        await db.schema.createIndex('key_audit_log_key_id').ifNotExists().on('key_audit_log').column('key_id').execute();
      },
    },
    '0002_webhooks': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('webhook_endpoints')
          .ifNotExists()
          .addColumn('id', 'text', (column) => column.primaryKey())
          .addColumn('organization_id', 'text', (column) => column.notNull())
          .addColumn('environment', 'text', (column) => column.notNull().check(sql`environment IN ('test', 'live')`))
          .addColumn('url', 'text', (column) => column.notNull())
          .addColumn('events', types.json, (column) => column.notNull())
          .addColumn('description', 'text')
          .addColumn('secret', 'text', (column) => column.notNull())
          .addColumn('previous_secret', 'text')
          .addColumn('previous_secret_expires_at', types.timestamp)
          .addColumn('disabled_at', types.timestamp)
          .addColumn('disabled_reason', 'text')
          .addColumn('created_at', types.timestamp, (column) => column.notNull())
          .addColumn('updated_at', types.timestamp, (column) => column.notNull())
          .execute();
        await db.schema.createIndex('webhook_endpoints_owner').ifNotExists().on('webhook_endpoints').columns(['organization_id', 'environment']).execute();
        await db.schema
          .createTable('webhook_deliveries')
          .ifNotExists()
          .addColumn('id', 'text', (column) => column.primaryKey())
          .addColumn('endpoint_id', 'text', (column) => column.notNull())
          .addColumn('event_id', 'text', (column) => column.notNull())
          .addColumn('event_type', 'text', (column) => column.notNull())
          .addColumn('attempt', 'integer', (column) => column.notNull())
          .addColumn('outcome', 'text', (column) => column.notNull().check(sql`outcome IN ('succeeded', 'failed')`))
          .addColumn('http_status', 'integer')
          .addColumn('error', 'text')
          .addColumn('attempted_at', types.timestamp, (column) => column.notNull())
          .addColumn('duration_ms', 'integer', (column) => column.notNull())
          .execute();
        await db.schema.createIndex('webhook_deliveries_endpoint').ifNotExists().on('webhook_deliveries').columns(['endpoint_id', 'attempted_at']).execute();
      },
    },
    '0003_reviewers': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('reviewer_credentials')
          .addColumn('id', 'text', (column) => column.primaryKey())
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('environment', 'text', (column) => column.notNull().check(sql`environment IN ('test', 'live')`))
          .addColumn('prefix', 'text', (column) => column.notNull())
          .addColumn('hash', types.bytes, (column) => column.notNull().unique())
          .addColumn('created_at', types.timestamp, (column) => column.notNull())
          .addColumn('revoked_at', types.timestamp)
          .execute();
        // One active credential per name and environment: the name is who the workflow records.
        await db.schema
          .createIndex('reviewer_credentials_active_name')
          .on('reviewer_credentials')
          .columns(['name', 'environment'])
          .unique()
          .where(sql.ref('revoked_at'), 'is', null)
          .execute();
        await db.schema
          .createTable('reviewer_audit_log')
          .addColumn('id', kind === 'postgres' ? 'bigint' : 'integer', (column) =>
            kind === 'postgres' ? column.primaryKey().generatedAlwaysAsIdentity() : column.primaryKey().autoIncrement(),
          )
          .addColumn('at', types.timestamp, (column) => column.notNull())
          .addColumn('actor', 'text', (column) => column.notNull())
          .addColumn('action', 'text', (column) => column.notNull())
          .addColumn('reviewer_id', 'text', (column) => column.notNull())
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('environment', 'text', (column) => column.notNull())
          .addColumn('details', types.json, (column) => column.notNull())
          .execute();
      },
    },
    '0004_console_sessions': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('console_sessions')
          .addColumn('id_hash', types.bytes, (column) => column.primaryKey())
          .addColumn('csrf_hash', types.bytes, (column) => column.notNull())
          .addColumn('kind', 'text', (column) => column.notNull().check(sql`kind IN ('customer', 'reviewer')`))
          .addColumn('credential_id', 'text', (column) => column.notNull())
          .addColumn('created_at', types.timestamp, (column) => column.notNull())
          .addColumn('expires_at', types.timestamp, (column) => column.notNull())
          .execute();
      },
    },
    // Delivery records go with an erased resource's events and when the retention period has passed.
    '0005_crypto_delivery_erasure_indexes': {
      async up(db: Kysely<unknown>) {
        await db.schema.createIndex('webhook_deliveries_event').ifNotExists().on('webhook_deliveries').column('event_id').execute();
        await db.schema.createIndex('webhook_deliveries_attempted_at').ifNotExists().on('webhook_deliveries').column('attempted_at').execute();
      },
    },
    // The events of erased resources, which no delivery attempt may send any more; kept for the retention period.
    '0006_webhook_suppressed_events': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('webhook_suppressed_events')
          .addColumn('organization_id', 'text', (column) => column.notNull())
          .addColumn('environment', 'text', (column) => column.notNull().check(sql`environment IN ('test', 'live')`))
          .addColumn('event_id', 'text', (column) => column.notNull())
          .addColumn('suppressed_at', types.timestamp, (column) => column.notNull())
          .addPrimaryKeyConstraint('webhook_suppressed_events_pk', ['organization_id', 'environment', 'event_id'])
          .execute();
        await db.schema.createIndex('webhook_suppressed_events_suppressed_at').on('webhook_suppressed_events').column('suppressed_at').execute();
      },
    },
    '0007_provider_slots': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('provider_slots')
          .addColumn('model', 'text', (column) => column.notNull())
          .addColumn('slot', 'integer', (column) => column.notNull())
          .addColumn('holder', 'text')
          .addColumn('expires_at', types.timestamp)
          .addPrimaryKeyConstraint('provider_slots_pk', ['model', 'slot'])
          .execute();
        await db.schema
          .createTable('provider_pace')
          .addColumn('model', 'text', (column) => column.primaryKey())
          .addColumn('next_at', types.timestamp, (column) => column.notNull())
          .execute();
      },
    },
    '0008_usage_records': {
      async up(db: Kysely<unknown>) {
        // Figures only, never text: an erased task's usage stays counted.
        await db.schema
          .createTable('usage_records')
          .addColumn('environment', 'text', (column) => column.notNull())
          .addColumn('organization_id', 'text', (column) => column.notNull())
          .addColumn('task_id', 'text', (column) => column.notNull())
          .addColumn('day', 'text', (column) => column.notNull())
          .addColumn('model', 'text', (column) => column.notNull())
          .addColumn('provider_calls', 'integer', (column) => column.notNull())
          .addColumn('input_tokens', 'integer')
          .addColumn('output_tokens', 'integer')
          .addColumn('input_characters', 'integer', (column) => column.notNull())
          .addColumn('output_characters', 'integer', (column) => column.notNull())
          .addColumn('cost', kind === 'postgres' ? 'double precision' : 'real')
          .addColumn('recorded_at', types.timestamp, (column) => column.notNull())
          .addPrimaryKeyConstraint('usage_records_pk', ['environment', 'organization_id', 'task_id'])
          .execute();
        await db.schema.createIndex('usage_records_by_day').on('usage_records').columns(['organization_id', 'environment', 'day']).execute();
      },
    },
    '0009_batch_items': {
      async up(db: Kysely<unknown>) {
        // A batch's items until each becomes a task; the input is sealed, and the row goes when the task starts.
        await db.schema
          .createTable('batch_items')
          .addColumn('environment', 'text', (column) => column.notNull())
          .addColumn('organization_id', 'text', (column) => column.notNull())
          .addColumn('batch_id', 'text', (column) => column.notNull())
          .addColumn('item_index', 'integer', (column) => column.notNull())
          .addColumn('item_key', 'text', (column) => column.notNull())
          .addColumn('sealed_input', 'text', (column) => column.notNull())
          .addColumn('staged_at', types.timestamp, (column) => column.notNull())
          .addPrimaryKeyConstraint('batch_items_pk', ['environment', 'organization_id', 'batch_id', 'item_index'])
          .execute();
      },
    },
    // The workflows of customer-asked redeliveries, by event, for the erasure of the event's resource; ids only.
    '0010_webhook_redeliveries': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('webhook_redeliveries')
          .addColumn('workflow_id', 'text', (column) => column.primaryKey())
          .addColumn('organization_id', 'text', (column) => column.notNull())
          .addColumn('environment', 'text', (column) => column.notNull().check(sql`environment IN ('test', 'live')`))
          .addColumn('event_id', 'text', (column) => column.notNull())
          .addColumn('started_at', types.timestamp, (column) => column.notNull())
          .execute();
        await db.schema.createIndex('webhook_redeliveries_event').on('webhook_redeliveries').columns(['organization_id', 'environment', 'event_id']).execute();
        await db.schema.createIndex('webhook_redeliveries_started_at').on('webhook_redeliveries').column('started_at').execute();
      },
    },
    // Each assessment's organisation and its place in the review queue, so a review finds one
    // without listing visibility; ids and times only (docs/architecture.md, The review index).
    '0011_assessment_index': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('assessment_index')
          .addColumn('environment', 'text', (column) => column.notNull().check(sql`environment IN ('test', 'live')`))
          .addColumn('assessment_id', 'text', (column) => column.notNull())
          .addColumn('organization_id', 'text', (column) => column.notNull())
          .addColumn('created_at', types.timestamp, (column) => column.notNull())
          .addColumn('due_at', types.timestamp, (column) => column.notNull())
          .addColumn('claimed_by', 'text')
          .addColumn('closed_at', types.timestamp)
          .addPrimaryKeyConstraint('assessment_index_pk', ['environment', 'assessment_id'])
          .execute();
        // The queue's order, so a page is a range of an index whatever the number of open assessments.
        await db.schema
          .createIndex('assessment_index_queue')
          .on('assessment_index')
          .columns(['environment', 'due_at', 'created_at', 'assessment_id'])
          .where(sql.ref('closed_at'), 'is', null)
          .execute();
        await db.schema
          .createIndex('assessment_index_claims')
          .on('assessment_index')
          .columns(['environment', 'claimed_by', 'due_at', 'created_at', 'assessment_id'])
          .where(sql.ref('closed_at'), 'is', null)
          .execute();
        await db.schema.createIndex('assessment_index_closed_at').on('assessment_index').columns(['environment', 'closed_at']).execute();
        await db.schema
          .createTable('assessment_index_progress')
          .addColumn('environment', 'text', (column) => column.primaryKey().check(sql`environment IN ('test', 'live')`))
          .addColumn('indexed_until', types.timestamp, (column) => column.notNull())
          .execute();
      },
    },
    // Which assessment revises which (docs/api.md, Network assessment), written before the
    // revision's workflow starts; ids and a time only.
    '0012_assessment_revisions': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('assessment_revisions')
          .addColumn('environment', 'text', (column) => column.notNull().check(sql`environment IN ('test', 'live')`))
          .addColumn('organization_id', 'text', (column) => column.notNull())
          .addColumn('assessment_id', 'text', (column) => column.notNull())
          .addColumn('revision_of', 'text', (column) => column.notNull())
          .addColumn('created_at', types.timestamp, (column) => column.notNull())
          .addPrimaryKeyConstraint('assessment_revisions_pk', ['environment', 'organization_id', 'assessment_id'])
          .execute();
        // One revision per assessment.
        await db.schema.createIndex('assessment_revisions_of').unique().on('assessment_revisions').columns(['environment', 'organization_id', 'revision_of']).execute();
      },
    },
    // Review pipelines: the groups a reviewer credential acts in (none for those issued before:
    // they act on stages without a group, as before), and the index's active stage and its group,
    // so the queue filters by either as a range of an index.
    '0013_review_groups': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('reviewer_credentials').addColumn('groups', types.json, (column) => column.notNull().defaultTo('[]')).execute();
        await db.schema.alterTable('assessment_index').addColumn('stage', 'text').execute();
        await db.schema.alterTable('assessment_index').addColumn('stage_group', 'text').execute();
        for (const [name, column] of [['assessment_index_stage', 'stage'], ['assessment_index_group', 'stage_group']]) {
          await db.schema
            .createIndex(name)
            .on('assessment_index')
            .columns(['environment', column, 'due_at', 'created_at', 'assessment_id'])
            .where(sql.ref('closed_at'), 'is', null)
            .execute();
        }
        // The next catch-up lists every assessment again, as the first one did, and so gives the
        // open rows indexed before this their stage (AssessmentIndexStore.add).
        await sql`DELETE FROM assessment_index_progress`.execute(db);
      },
    },
    // One row: what the API that started last does with production data (ApiEncryptionReportStore).
    '0014_api_encryption_report': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('api_encryption_report')
          .addColumn('id', 'integer', (column) => column.primaryKey().check(sql`id = 1`))
          .addColumn('production_data', 'text', (column) => column.notNull().check(sql`production_data IN ('encrypted', 'plaintext', 'refused')`))
          .addColumn('reported_at', types.timestamp, (column) => column.notNull())
          .execute();
      },
    },
  };
}

/**
 * Brings the schema up to date. Several processes may open one new database at once: on
 * PostgreSQL kysely holds an advisory lock while it migrates; on SQLite it takes none (it expects
 * one connection), so the whole run is one IMMEDIATE transaction on one connection, which holds
 * the file's write lock (other processes wait up to busy_timeout) and leaves nothing behind if a
 * migration fails.
 */
export async function migrateToLatest(db: Kysely<Tables>, kind: DatabaseKind): Promise<void> {
  // Without the stores' CamelCasePlugin: migrations name tables and columns as the database does.
  const plain = db.withoutPlugins();
  const provider = { getMigrations: async () => migrations(kind) };
  if (kind === 'postgres') {
    throwIfFailed(await new Migrator({ db: plain, provider }).migrateToLatest());
    return;
  }
  await plain.connection().execute(async (connection) => {
    await sql`BEGIN IMMEDIATE`.execute(connection);
    const result = await new Migrator({ db: connection, provider }).migrateToLatest();
    await sql.raw(result.error === undefined ? 'COMMIT' : 'ROLLBACK').execute(connection);
    throwIfFailed(result);
  });
}

function throwIfFailed({ error }: { error?: unknown }): void {
  if (error !== undefined) throw error instanceof Error ? error : new Error(`migration failed: ${String(error)}`);
}
