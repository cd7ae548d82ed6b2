import type { KeyStore } from '../../../../../src/common/storage/key-store';
import { KeyUsageRecorder } from '../../../../../src/api/platform/keys/key-usage-recorder';

const START = Date.parse('2030-01-01T00:00:00.000Z');

function recordingStore(recordUse: (id: string, at: Date) => Promise<void> = async () => undefined) {
  const calls: Array<[string, string]> = [];
  const store = {
    recordUse: jest.fn(async (id: string, at: Date) => {
      calls.push([id, at.toISOString()]);
      await recordUse(id, at);
    }),
  } as unknown as KeyStore;
  return { store, calls };
}

describe('throttled last-use writes', () => {
  it('writes at most once a minute per key', async () => {
    const { store, calls } = recordingStore();
    const recorder = new KeyUsageRecorder(store, jest.fn());
    for (let second = 0; second <= 120; second++) recorder.noteUse('key_a', new Date(START + second * 1000));
    recorder.noteUse('key_b', new Date(START + 5000));
    await recorder.close();
    expect(calls).toEqual([
      ['key_a', new Date(START).toISOString()],
      ['key_a', new Date(START + 60_000).toISOString()],
      ['key_a', new Date(START + 120_000).toISOString()],
      ['key_b', new Date(START + 5000).toISOString()],
    ]);
  });

  it('returns before the write starts, so the request never waits for it', async () => {
    const { store, calls } = recordingStore();
    const recorder = new KeyUsageRecorder(store, jest.fn());
    recorder.noteUse('key_a', new Date(START));
    expect(calls).toEqual([]);
    await recorder.close();
    expect(calls).toHaveLength(1);
  });

  it('hands a failed write to the error callback instead of failing anything', async () => {
    const failure = new Error('database is down');
    const { store } = recordingStore(() => Promise.reject(failure));
    const onError = jest.fn();
    const recorder = new KeyUsageRecorder(store, onError);
    recorder.noteUse('key_a', new Date(START));
    await recorder.close();
    expect(onError).toHaveBeenCalledWith(failure);
  });

  it('ignores uses after close, so the store can be closed safely', async () => {
    const { store, calls } = recordingStore();
    const recorder = new KeyUsageRecorder(store, jest.fn());
    await recorder.close();
    recorder.noteUse('key_a', new Date(START));
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([]);
  });
});
