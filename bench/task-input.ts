import type { SummarizeInput } from '../src/contract';
import { benchText } from './bench-text';

/** Every throughput and latency task summarises this: about 1 KiB, a typical news item. */
export const BENCH_TASK_INPUT: SummarizeInput = { text: benchText(1024, 7) };
