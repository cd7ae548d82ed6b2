import { sql, type Kysely } from 'kysely';
import type { KeyEnvironment } from '../keys/api-key';
import type { Tables, UsageRecordRow } from './tables';

/** An organisation's usage of one model on one day. */
export interface UsageTotal {
  day: string;
  model: string;
  tasks: number;
  providerCalls: number;
  inputTokens: number;
  outputTokens: number;
  inputCharacters: number;
  outputCharacters: number;
  cost: number | null;
}

/** Usage records, one per task, in the database every worker and API instance shares. */
export class UsageStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /**
   * Records the task's usage unless it was recorded before (a retried activity, a replayed
   * workflow); the first record stands. Returns the stored cost and whether this call recorded it.
   */
  async record(row: UsageRecordRow): Promise<{ recorded: boolean; cost: number | null }> {
    const inserted = await this.db
      .insertInto('usageRecords')
      .values(row)
      .onConflict((conflict) => conflict.columns(['environment', 'organizationId', 'taskId']).doNothing())
      .executeTakeFirst();
    if ((inserted.numInsertedOrUpdatedRows ?? 0n) > 0n) return { recorded: true, cost: row.cost };
    const stored = await this.db
      .selectFrom('usageRecords')
      .select('cost')
      .where('environment', '=', row.environment)
      .where('organizationId', '=', row.organizationId)
      .where('taskId', '=', row.taskId)
      .executeTakeFirstOrThrow();
    return { recorded: false, cost: stored.cost };
  }

  /** Totals by day and model over `fromDay`…`toDay` (inclusive), in day then model order. */
  async totals(environment: KeyEnvironment, organizationId: string, fromDay: string, toDay: string): Promise<UsageTotal[]> {
    const rows = await this.db
      .selectFrom('usageRecords')
      .select((eb) => [
        'day',
        'model',
        eb.fn.countAll<number | string>().as('tasks'),
        eb.fn.sum<number | string>('providerCalls').as('providerCalls'),
        sql<number | string>`coalesce(sum(input_tokens), 0)`.as('inputTokens'),
        sql<number | string>`coalesce(sum(output_tokens), 0)`.as('outputTokens'),
        eb.fn.sum<number | string>('inputCharacters').as('inputCharacters'),
        eb.fn.sum<number | string>('outputCharacters').as('outputCharacters'),
        eb.fn.sum<number | string | null>('cost').as('cost'),
      ])
      .where('environment', '=', environment)
      .where('organizationId', '=', organizationId)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .groupBy(['day', 'model'])
      .orderBy('day')
      .orderBy('model')
      .execute();
    // PostgreSQL sums integers as numeric and counts as bigint, which its driver hands back as text.
    return rows.map((row) => ({
      day: row.day,
      model: row.model,
      tasks: Number(row.tasks),
      providerCalls: Number(row.providerCalls),
      inputTokens: Number(row.inputTokens),
      outputTokens: Number(row.outputTokens),
      inputCharacters: Number(row.inputCharacters),
      outputCharacters: Number(row.outputCharacters),
      cost: row.cost === null ? null : Number(row.cost),
    }));
  }
}
