import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ProviderSlots, type HeldSlot } from '../../../../activities/summarize/provider-slots';
import { AppConfig } from '../../../../src/common/config/app-config';
import type { RemoteModel } from '../../../../src/common/config/model-catalog';
import { Storage } from '../../../../src/common/storage/storage';

let dir: string;
let storage: Storage;
// Slots a test holds past an expectation, released after it even when it fails (a held slot renews on a timer).
let held: HeldSlot[] = [];

function stillHeld(slot: HeldSlot): HeldSlot {
  held.push(slot);
  return slot;
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-provider-slots-'));
  storage = await Storage.open(new AppConfig({ DATA_DIR: dir }));
});

afterEach(async () => {
  await Promise.all(held.map((slot) => slot.release()));
  held = [];
  await storage.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The promise's value, or 'timed out' when it has not settled within `ms` (the timer is cleared either way). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timed out'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timed out'>((resolve) => (timer = setTimeout(() => resolve('timed out'), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function model(settings: Partial<RemoteModel>): RemoteModel {
  return {
    name: 'llama',
    provider: 'openai-compatible',
    baseUrl: 'http://127.0.0.1:8081/v1',
    providerModel: 'llama',
    contextTokens: 4096,
    maxOutputTokens: 256,
    concurrency: 4,
    timeoutMs: 120_000,
    unavailableWaitMs: 3_600_000,
    ...settings,
    sandboxConcurrency: settings.sandboxConcurrency ?? settings.concurrency ?? 4,
  };
}

describe('ProviderSlots.acquire', () => {
  it('keeps the sandbox to its share of the slots, and production finds the rest free', async () => {
    const slots = new ProviderSlots(storage.providerSlots);
    const shared = model({ name: 'shared', concurrency: 3, sandboxConcurrency: 2 });
    const sandbox = [await slots.acquire(shared, 'test', AbortSignal.timeout(2000)), await slots.acquire(shared, 'test', AbortSignal.timeout(2000))];
    // A third sandbox call waits although a slot is free, until its signal gives up…
    await expect(slots.acquire(shared, 'test', AbortSignal.timeout(600))).rejects.toMatchObject({ name: 'AbortError' });
    // …which production takes at once.
    const production = await within(slots.acquire(shared, 'live', AbortSignal.timeout(2000)), 1000);
    expect(production).toHaveProperty('release');
    await Promise.all([...sandbox, production as { release(): Promise<void> }].map((slot) => slot.release()));
  });

  it('never lets more calls than the concurrency hold a slot at once', async () => {
    const slots = new ProviderSlots(storage.providerSlots);
    const llama = model({ concurrency: 2 });
    let inFlight = 0;
    let mostHeld = 0;
    let completed = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        const slot = await slots.acquire(llama, 'test', new AbortController().signal);
        inFlight++;
        mostHeld = Math.max(mostHeld, inFlight);
        await delay(100);
        inFlight--;
        await slot.release();
        completed++;
      }),
    );
    expect(completed).toBe(6);
    expect(mostHeld).toBe(2);
  });

  it('ends a waiting acquire with an abort error when its signal aborts, without taking a slot', async () => {
    const slots = new ProviderSlots(storage.providerSlots);
    const llama = model({ concurrency: 1 });
    const first = stillHeld(await slots.acquire(llama, 'test', new AbortController().signal));
    const controller = new AbortController();
    const waiting = slots.acquire(llama, 'test', controller.signal);
    const outcome = waiting.then(
      (slot) => ({ slot: stillHeld(slot) }),
      (error: unknown) => ({ error }),
    );
    await delay(100);
    controller.abort();
    expect(await within(outcome, 2000)).toEqual({ error: expect.objectContaining({ name: 'AbortError' }) });
    await first.release();
    // The aborted acquire holds nothing: the one slot is free for the next.
    const next = await slots.acquire(llama, 'test', AbortSignal.timeout(3000));
    await next.release();
  });

  it('ends an acquire waiting for its turn under the rate when its signal aborts, and frees its slot', async () => {
    const slots = new ProviderSlots(storage.providerSlots);
    // One call a minute: the second waits for its turn, holding its slot.
    const llama = model({ concurrency: 1, requestsPerMinute: 1 });
    const first = await slots.acquire(llama, 'test', new AbortController().signal);
    await first.release();
    const controller = new AbortController();
    const waiting = slots.acquire(llama, 'test', controller.signal);
    await delay(300);
    controller.abort();
    await expect(waiting.then(stillHeld)).rejects.toMatchObject({ name: 'AbortError' });
    expect(await storage.providerSlots.take('llama', 1, 'another', new Date(), new Date(Date.now() + 20_000))).toBe(0);
  });

  it('keeps to requestsPerMinute: 3 calls at 60 a minute take at least 2 s, the first at once', async () => {
    const slots = new ProviderSlots(storage.providerSlots);
    const llama = model({ concurrency: 10, requestsPerMinute: 60 });
    const acquiredAt: number[] = [];
    const started = Date.now();
    for (let call = 0; call < 3; call++) {
      const slot = await slots.acquire(llama, 'test', new AbortController().signal);
      acquiredAt.push(Date.now());
      await slot.release();
    }
    // The first call's turn comes at once (sooner than a turn's second), each of the next two a second after the one before.
    expect(acquiredAt[0] - started).toBeLessThan(1_000);
    expect(acquiredAt[2] - started).toBeGreaterThanOrEqual(2_000);
  });

  it('takes over a slot whose holder stopped renewing once its lease ran out', async () => {
    let now = Date.parse('2030-01-01T00:00:00.000Z');
    const slots = new ProviderSlots(storage.providerSlots, () => new Date(now));
    const llama = model({ concurrency: 1 });
    const abandoned = stillHeld(await slots.acquire(llama, 'test', new AbortController().signal));
    // Within the lease the slot stays the first holder's.
    await expect(slots.acquire(llama, 'test', AbortSignal.timeout(600))).rejects.toMatchObject({ name: 'AbortError' });
    now += 21_000;
    const taken = await slots.acquire(llama, 'test', AbortSignal.timeout(3000));
    await taken.release();
    await abandoned.release();
  });
});
