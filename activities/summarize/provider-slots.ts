import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { RemoteModel } from '../../src/common/config/model-catalog';
import type { KeyEnvironment } from '../../src/common/keys/api-key';
import type { ProviderSlotStore } from '../../src/common/storage/provider-slot-store';

// A slot's holder renews its lease well before it runs out; a worker killed holding one frees it
// within LEASE_MS.
const LEASE_MS = 20_000;
const RENEW_EVERY_MS = 5_000;
// How often a call waiting for a slot or for its turn under the rate looks again.
const POLL_MS = 250;

/** A slot held for one call: `signal` aborts when the lease was lost, and the call must stop. */
export interface HeldSlot {
  signal: AbortSignal;
  release(): Promise<void>;
}

/** The gate every call to a remote model passes, so all workers together keep to the model's concurrency and rate. */
export class ProviderSlots {
  constructor(
    private readonly store: ProviderSlotStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Waits for a slot and then for the model's rate to allow a call; `signal` gives up the wait. The
   * sandbox may take only the model's first sandboxConcurrency slots; production any, highest first.
   */
  async acquire(model: RemoteModel, environment: KeyEnvironment, signal: AbortSignal): Promise<HeldSlot> {
    const holder = randomUUID();
    const production = environment === 'live';
    const limit = production ? model.concurrency : model.sandboxConcurrency;
    let slot: number | undefined;
    while ((slot = await this.store.take(model.name, limit, holder, this.now(), this.leaseEnd(), production)) === undefined) {
      await delay(POLL_MS + Math.random() * POLL_MS, undefined, { signal });
    }
    const held = this.hold(model.name, slot, holder);
    try {
      if (model.requestsPerMinute !== undefined) await this.waitForTurn(model.name, 60_000 / model.requestsPerMinute, signal);
    } catch (error) {
      await held.release();
      throw error;
    }
    return held;
  }

  private async waitForTurn(model: string, intervalMs: number, signal: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.now();
      const turn = await this.store.pace(model, intervalMs, now);
      if (turn.granted) return;
      await delay(Math.max(turn.nextAt.getTime() - now.getTime(), POLL_MS / 5), undefined, { signal });
    }
  }

  private hold(model: string, slot: number, holder: string): HeldSlot {
    const lost = new AbortController();
    const renewal = setInterval(() => {
      this.store.renew(model, slot, holder, this.leaseEnd()).then(
        (held) => held || lost.abort(new Error(`the lease on ${model}'s call slot ${slot} ran out`)),
        // A database that cannot be reached now may be back before the lease runs out.
        () => undefined,
      );
    }, RENEW_EVERY_MS);
    return {
      signal: lost.signal,
      release: async () => {
        clearInterval(renewal);
        // Unreleased, the slot frees itself when the lease runs out; the call it served succeeded.
        await this.store.release(model, slot, holder).catch(() => undefined);
      },
    };
  }

  private leaseEnd(): Date {
    return new Date(this.now().getTime() + LEASE_MS);
  }
}
