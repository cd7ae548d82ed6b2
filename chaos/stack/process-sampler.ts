import * as fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';
import { SAMPLER_ENV, sampleFromProc, type ProcessSample } from './process-sample';

// Preloaded with `node --require` into the API and workers of a soak run. Heap and event-loop
// delay can only be seen from inside a process, so each one appends its own sample, one JSON
// line per interval, to the file the soak reads. The interval timer is unref'd: it never keeps
// a process alive that would otherwise exit.
const file = process.env[SAMPLER_ENV.file];

if (file && isMainThread) {
  const name = process.env[SAMPLER_ENV.processName] ?? String(process.pid);
  const intervalMs = Number(process.env[SAMPLER_ENV.intervalMs] ?? 60_000);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  setInterval(() => {
    const outside = sampleFromProc(name, process.pid);
    if (!outside) return;
    const sample: ProcessSample = { ...outside, heapUsedBytes: process.memoryUsage().heapUsed, eventLoopDelayP99Ms: delay.percentile(99) / 1e6 };
    delay.reset();
    fs.appendFileSync(file, `${JSON.stringify(sample)}\n`);
  }, intervalMs).unref();
}
