import { defaultStickyCacheSize } from '../../../src/worker/sticky-cache-size';

const GIB = 1024 ** 3;
const NODE_HEAP = 4144 * 1024 ** 2;

describe('the default sticky cache size', () => {
  it('holds 10,000 open assessments per environment on a 24 GiB machine polling both environments', () => {
    expect(defaultStickyCacheSize({ memoryBytes: 24 * GIB, threadHeapBytes: NODE_HEAP, environments: 2, traced: false })).toBeGreaterThan(10_000);
  });

  it('shares half the memory among the environments polled', () => {
    const one = defaultStickyCacheSize({ memoryBytes: 8 * GIB, threadHeapBytes: NODE_HEAP, environments: 1, traced: false });
    const two = defaultStickyCacheSize({ memoryBytes: 8 * GIB, threadHeapBytes: NODE_HEAP, environments: 2, traced: false });
    expect(one).toBe(Math.floor((4 * 1024) / 0.35));
    expect(two).toBe(Math.floor((2 * 1024) / 0.35));
  });

  it('stays within half a workflow thread\'s heap', () => {
    expect(defaultStickyCacheSize({ memoryBytes: 256 * GIB, threadHeapBytes: NODE_HEAP, environments: 1, traced: false })).toBe(Math.floor(4144 / 2 / 0.125));
    expect(defaultStickyCacheSize({ memoryBytes: 256 * GIB, threadHeapBytes: 512 * 1024 ** 2, environments: 1, traced: false })).toBe(2048);
  });

  it('never goes below 500, nor above 100,000', () => {
    expect(defaultStickyCacheSize({ memoryBytes: 0.5 * GIB, threadHeapBytes: NODE_HEAP, environments: 2, traced: false })).toBe(500);
    expect(defaultStickyCacheSize({ memoryBytes: 1024 * GIB, threadHeapBytes: 64 * GIB, environments: 1, traced: false })).toBe(100_000);
  });

  it('stays at 500 when runs are traced: each carries its own OpenTelemetry modules', () => {
    expect(defaultStickyCacheSize({ memoryBytes: 24 * GIB, threadHeapBytes: NODE_HEAP, environments: 2, traced: true })).toBe(500);
  });
});
