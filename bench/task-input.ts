import type { SummarizeInput } from '../src/contract';
import { benchText } from './bench-text';

/** Every throughput and latency task summarises this: about 1 KiB, a typical news item. */
export const BENCH_TASK_INPUT: SummarizeInput = { text: benchText(1024, 7) };

/** A batch's items, each summarising BENCH_TASK_INPUT under its own key. */
export function benchBatchItems(count: number): Array<{ key: string; input: SummarizeInput }> {
  return Array.from({ length: count }, (_, index) => ({ key: `item-${index}`, input: BENCH_TASK_INPUT }));
}
