import * as os from 'node:os';
import * as v8 from 'node:v8';

const MIB = 1024 * 1024;

// Measured with open assessments waiting for their claim (docs/benchmarks.md, "Review
// path"): about 0.11 MiB of the workflow thread's heap each, 0.29-0.34 MiB of the
// process's memory in all. Budgeted with a margin.
const PROCESS_MIB_PER_CACHED_RUN = 0.35;
const HEAP_MIB_PER_CACHED_RUN = 0.125;
// A traced run evaluates its own copy of OpenTelemetry's modules, and at the SDK's heap-sized default
// (about 2,300 per worker) traced assessments ran a workflow thread out of heap; 500 held.
const TRACED_CACHE_SIZE = 500;
const MIN_CACHE_SIZE = 500;
const MAX_CACHE_SIZE = 100_000;

/** What the default depends on: the memory this process may use, one workflow thread's heap limit, the environments polled, whether runs are traced. */
export interface StickyCacheBudget {
  memoryBytes: number;
  threadHeapBytes: number;
  environments: number;
  traced: boolean;
}

/** The memory this process may use: the machine's, or its cgroup's limit when lower (a container). */
function processMemoryBytes(): number {
  const constrained = process.constrainedMemory?.();
  return constrained && constrained > 0 ? Math.min(constrained, os.totalmem()) : os.totalmem();
}

/** This machine's budget; a workflow thread is a worker thread and gets the same heap limit as the main one. */
export function machineStickyCacheBudget(environments: number, traced: boolean): StickyCacheBudget {
  return { memoryBytes: processMemoryBytes(), threadHeapBytes: v8.getHeapStatistics().heap_size_limit, environments, traced };
}

/**
 * How many workflows each environment's task worker keeps cached when WORKER_MAX_CACHED_WORKFLOWS is
 * unset. Open assessments wait for reviewers for days, and one evicted is replayed from its history
 * on its next claim or verdict, so the cache should hold all of them when memory allows: the task
 * workers' caches together get half the memory the process may use, each at most half its workflow
 * thread's heap. The batch queue's worker gets the same bound; what it caches (batch items and their
 * batch) finishes, so it never holds many.
 */
export function defaultStickyCacheSize({ memoryBytes, threadHeapBytes, environments, traced }: StickyCacheBudget): number {
  if (traced) return TRACED_CACHE_SIZE;
  const byMemory = memoryBytes / 2 / Math.max(environments, 1) / (PROCESS_MIB_PER_CACHED_RUN * MIB);
  const byHeap = threadHeapBytes / 2 / (HEAP_MIB_PER_CACHED_RUN * MIB);
  return Math.floor(Math.min(MAX_CACHE_SIZE, Math.max(MIN_CACHE_SIZE, Math.min(byMemory, byHeap))));
}
