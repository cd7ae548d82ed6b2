import type { Kysely } from 'kysely';
import type { Tables } from './tables';

const EPOCH = new Date(0).toISOString();

/**
 * A model's deployment-wide call limits, in the database every worker shares: leased slots (its
 * concurrency) and the time of its next allowed call (its rate). A worker that dies holding a slot
 * loses it when the lease runs out, so a kill never shrinks the limit for good. Each statement
 * grants at most once: on PostgreSQL a second updater of the same row waits for the first and then
 * re-checks the row's condition; SQLite runs one write at a time.
 */
export class ProviderSlotStore {
  private readonly prepared = new Set<string>();

  constructor(private readonly db: Kysely<Tables>) {}

  /**
   * A free slot of the model's first `limit`, now leased to `holder` until `leaseEnd`; undefined
   * when all are held. `highest` takes the highest free one instead of the lowest, so a caller
   * allowed every slot leaves the low ones, the only ones a capped caller may take, to the latter.
   */
  async take(model: string, limit: number, holder: string, now: Date, leaseEnd: Date, highest = false): Promise<number | undefined> {
    await this.prepare(model, limit);
    const nowIso = now.toISOString();
    const free = this.db
      .selectFrom('providerSlots')
      .select((eb) => (highest ? eb.fn.max('slot') : eb.fn.min('slot')).as('slot'))
      .where('model', '=', model)
      .where('slot', '<', limit)
      .where((eb) => eb.or([eb('holder', 'is', null), eb('expiresAt', '<', nowIso)]));
    const taken = await this.db
      .updateTable('providerSlots')
      .set({ holder, expiresAt: leaseEnd.toISOString() })
      .where('model', '=', model)
      .where('slot', '=', free)
      .where((eb) => eb.or([eb('holder', 'is', null), eb('expiresAt', '<', nowIso)]))
      .returning('slot')
      .executeTakeFirst();
    return taken?.slot;
  }

  /** Extends the lease; false when `holder` no longer holds the slot (its lease ran out and another took it). */
  async renew(model: string, slot: number, holder: string, leaseEnd: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('providerSlots')
      .set({ expiresAt: leaseEnd.toISOString() })
      .where('model', '=', model)
      .where('slot', '=', slot)
      .where('holder', '=', holder)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async release(model: string, slot: number, holder: string): Promise<void> {
    await this.db.updateTable('providerSlots').set({ holder: null, expiresAt: null }).where('model', '=', model).where('slot', '=', slot).where('holder', '=', holder).execute();
  }

  /** Claims the model's next call at `now` if its time has come (the next one then `intervalMs` later); else when it may be tried again. */
  async pace(model: string, intervalMs: number, now: Date): Promise<{ granted: true } | { granted: false; nextAt: Date }> {
    const key = `pace/${model}`;
    if (!this.prepared.has(key)) {
      await this.db.insertInto('providerPace').values({ model, nextAt: EPOCH }).onConflict((conflict) => conflict.column('model').doNothing()).execute();
      this.prepared.add(key);
    }
    const nowIso = now.toISOString();
    const claimed = await this.db
      .updateTable('providerPace')
      .set({ nextAt: new Date(now.getTime() + intervalMs).toISOString() })
      .where('model', '=', model)
      .where('nextAt', '<=', nowIso)
      .executeTakeFirst();
    if (claimed.numUpdatedRows > 0n) return { granted: true };
    const row = await this.db.selectFrom('providerPace').select('nextAt').where('model', '=', model).executeTakeFirstOrThrow();
    return { granted: false, nextAt: new Date(row.nextAt) };
  }

  /** The model's slot rows exist before any is taken (once per process and limit). */
  private async prepare(model: string, limit: number): Promise<void> {
    const key = `slots/${model}/${limit}`;
    if (this.prepared.has(key)) return;
    const rows = Array.from({ length: limit }, (_, slot) => ({ model, slot, holder: null, expiresAt: null }));
    await this.db
      .insertInto('providerSlots')
      .values(rows)
      .onConflict((conflict) => conflict.columns(['model', 'slot']).doNothing())
      .execute();
    this.prepared.add(key);
  }
}
