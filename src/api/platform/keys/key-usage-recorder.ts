import { LRUCache } from 'lru-cache';
import type { KeyStore } from '../../../common/storage/key-store';

export const KEY_USE_WRITE_INTERVAL_MS = 60_000;

/**
 * Keeps each key's last_used_at roughly current without a database write per request: at most one
 * write per key per interval from this process, started after the request that triggered it has
 * moved on, so a slow or failing store never delays or fails an API call.
 */
export class KeyUsageRecorder {
  private readonly lastWritten = new LRUCache<string, number>({ max: 10_000 });
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly store: KeyStore,
    private readonly onError: (error: unknown) => void,
    private readonly intervalMs = KEY_USE_WRITE_INTERVAL_MS,
  ) {}

  noteUse(keyId: string, at: Date): void {
    if (this.closed) return;
    const last = this.lastWritten.get(keyId);
    if (last !== undefined && at.getTime() - last < this.intervalMs) return;
    this.lastWritten.set(keyId, at.getTime());
    const write: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.store.recordUse(keyId, at))
      .catch(this.onError)
      .finally(() => this.inFlight.delete(write));
    this.inFlight.add(write);
  }

  /** Stops taking new uses and waits for the writes already started, so the store can be closed. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.inFlight);
  }
}
