import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { SecretSealer } from '../crypto/secret-sealer';
import type { KeyEnvironment } from '../keys/api-key';
import type { SummarizeInput } from '../../contract';
import type { BatchItemRow, Tables } from './tables';

export interface BatchItem {
  index: number;
  key: string;
  input: SummarizeInput;
}

export interface BatchRef {
  environment: KeyEnvironment;
  organizationId: string;
  batchId: string;
}

// SQLite binds at most 32,766 variables per statement (seven columns a row); a slice also bounds
// how long staging holds the event loop at a time.
const ROWS_PER_INSERT = 500;

/** A batch's items between its acceptance and their admission as tasks; the text never stays once its task holds it. */
export class BatchItemStore {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly sealer: SecretSealer,
  ) {}

  /**
   * Stages every item in one transaction; a retry of the same batch stages nothing twice. Sealed and
   * written a slice at a time with a turn of the event loop between slices: in one piece, 10,000
   * items held the API's event loop for about 350 ms, and every other request of every
   * organisation waited that long.
   */
  async stage(batch: BatchRef, items: BatchItem[], stagedAt: Date): Promise<void> {
    const rows: BatchItemRow[][] = [];
    for (let start = 0; start < items.length; start += ROWS_PER_INSERT) {
      rows.push(await Promise.all(items.slice(start, start + ROWS_PER_INSERT).map((item) => this.row(batch, item, stagedAt))));
      await yieldToEventLoop();
    }
    await this.db.transaction().execute(async (transaction) => {
      for (const slice of rows) {
        await transaction
          .insertInto('batchItems')
          .values(slice)
          .onConflict((conflict) => conflict.columns(['environment', 'organizationId', 'batchId', 'itemIndex']).doNothing())
          .execute();
        await yieldToEventLoop();
      }
    });
  }

  private async row(batch: BatchRef, item: BatchItem, stagedAt: Date): Promise<BatchItemRow> {
    return { ...batch, itemIndex: item.index, itemKey: item.key, sealedInput: await this.sealer.seal(JSON.stringify(item.input)), stagedAt: stagedAt.toISOString() };
  }

  /** Up to `limit` staged items from `fromIndex` on, in index order. */
  async page(batch: BatchRef, fromIndex: number, limit: number): Promise<BatchItem[]> {
    const rows = await this.db
      .selectFrom('batchItems')
      .select(['itemIndex', 'itemKey', 'sealedInput'])
      .where((eb) => eb.and(ofBatch(batch)))
      .where('itemIndex', '>=', fromIndex)
      .orderBy('itemIndex')
      .limit(limit)
      .execute();
    return Promise.all(rows.map(async (row) => ({ index: row.itemIndex, key: row.itemKey, input: JSON.parse(await this.sealer.open(row.sealedInput)) as SummarizeInput })));
  }

  /** Removes the staged items before `toIndex` (admitted: their tasks hold them now). */
  async unstage(batch: BatchRef, toIndex: number): Promise<void> {
    await this.db.deleteFrom('batchItems').where((eb) => eb.and(ofBatch(batch))).where('itemIndex', '<', toIndex).execute();
  }

  /** Removes every staged item of the batch; returns how many there were. */
  async withdraw(batch: BatchRef): Promise<number> {
    const result = await this.db.deleteFrom('batchItems').where((eb) => eb.and(ofBatch(batch))).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

function ofBatch(batch: BatchRef) {
  return { environment: batch.environment, organizationId: batch.organizationId, batchId: batch.batchId };
}
