import * as fs from 'node:fs';

/** The variables that switch the process sampler (process-sampler.ts) on and tell it where to write. */
export const SAMPLER_ENV = { file: 'CHAOS_SAMPLES_FILE', intervalMs: 'CHAOS_SAMPLE_INTERVAL_MS', processName: 'CHAOS_PROCESS_NAME' } as const;

/** One process at one moment; heap and event-loop delay only for Node processes, which report them themselves. */
export interface ProcessSample {
  process: string;
  at: number;
  rssBytes: number;
  openFds: number;
  heapUsedBytes?: number;
  /** The 99th percentile of the event loop's delay since the previous sample. */
  eventLoopDelayP99Ms?: number;
}

/** What any process shows from outside (Linux /proc): its resident memory and open descriptors. Undefined once it has exited. */
export function sampleFromProc(name: string, pid: number): ProcessSample | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKiB = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
    return { process: name, at: Date.now(), rssBytes: rssKiB * 1024, openFds: fs.readdirSync(`/proc/${pid}/fd`).length };
  } catch {
    return undefined;
  }
}

/** Every sample the sampled processes appended to `file`, in order. */
export function readSamples(file: string): ProcessSample[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ProcessSample);
}
