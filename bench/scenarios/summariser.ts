import { summarizeExtractive } from '../../activities/summarize/extractive';
import { benchText } from '../bench-text';
import { median } from '../stats';

export interface SummariserFigure {
  label: string;
  bytes: number;
  runs: number;
  medianMs: number;
  maxMs: number;
  mibPerSecond: number;
}

/** The text sizes the in-process scenarios measure, and how often the summariser runs each. */
export const TEXT_SIZES = [
  { label: '1 KiB', bytes: 1024, runs: 500 },
  { label: '64 KiB', bytes: 64 * 1024, runs: 40 },
  { label: '512 KiB', bytes: 512 * 1024, runs: 10 },
];
const WARMUP_RUNS = 3;

/** The default (extractive) summariser on its own, in this process: the activity's whole work. */
export function runSummariserScenario(): SummariserFigure[] {
  return TEXT_SIZES.map(({ label, bytes, runs }) => {
    const text = benchText(bytes);
    for (let i = 0; i < WARMUP_RUNS; i++) summarizeExtractive(text);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      summarizeExtractive(text);
      times.push(performance.now() - started);
    }
    const medianMs = median(times);
    return { label, bytes, runs, medianMs, maxMs: Math.max(...times), mibPerSecond: bytes / (1024 * 1024) / (medianMs / 1000) };
  });
}
