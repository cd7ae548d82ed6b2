import * as path from 'node:path';
import * as readline from 'node:readline';
import { describeChildExit, type ChildService } from '../../src/embedded/child-services';
import type { KeyEnvironment } from '../../src/common/keys/api-key';
import { startLoggedChild } from '../logged-child';
import { RAW_WORKER_READY } from './raw-worker-ready';

/** The raw worker as shipped (the SDK's defaults, no codec) or like for like (Assay's worker slots and payload codec, its workflow module preloaded). */
export type RawWorkerRole = 'raw-worker' | 'raw-worker-like-for-like';

export interface RawWorkerTarget {
  /** The environment Assay's own processes run with: their TEMPORAL_* settings are the raw worker's too. */
  temporalEnv: NodeJS.ProcessEnv;
  environment: KeyEnvironment;
  namespace: string;
  taskQueue: string;
  /**
   * Like for like: the environment Assay's worker runs with, from which the raw worker reads the
   * worker slots and payload keys as Assay's worker does. Without it, the raw worker is as shipped.
   */
  assayWorkerEnv?: NodeJS.ProcessEnv;
}

export interface RawWorker extends ChildService {
  role: RawWorkerRole;
}

/** Starts the raw engine's worker as a child process, its stderr to logFile; named after its role unless there are several of it. */
export function startRawWorker(target: RawWorkerTarget, logFile: string, name: string = rawWorkerRole(target)): RawWorker {
  const role = rawWorkerRole(target);
  const env = {
    ...target.temporalEnv,
    ...(target.assayWorkerEnv ? { ...target.assayWorkerEnv, RAW_LIKE_FOR_LIKE: '1' } : {}),
    RAW_KEY_ENVIRONMENT: target.environment,
    RAW_NAMESPACE: target.namespace,
    RAW_TASK_QUEUE: target.taskQueue,
  };
  return { ...startLoggedChild(name, path.join(__dirname, 'raw-worker.js'), env, logFile, { pipeStdout: true }), role };
}

export function rawWorkerRole(target: RawWorkerTarget): RawWorkerRole {
  return target.assayWorkerEnv ? 'raw-worker-like-for-like' : 'raw-worker';
}

/** Resolves once the raw worker says it polls; rejects if it exits or stays silent too long. */
export function rawWorkerReady(service: ChildService, timeoutMs = 120_000): Promise<void> {
  const lines = readline.createInterface({ input: service.process.stdout as NodeJS.ReadableStream });
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the raw worker was not ready within ${timeoutMs} ms`)), timeoutMs);
    lines.on('line', (line) => {
      if (line !== RAW_WORKER_READY) return;
      clearTimeout(timer);
      resolve();
    });
    void service.exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`the ${describeChildExit('raw worker', exit, false)}, before it was ready`));
    });
  });
}
