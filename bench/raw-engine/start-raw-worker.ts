import * as path from 'node:path';
import * as readline from 'node:readline';
import { describeChildExit, type ChildService } from '../../src/embedded/child-services';
import type { KeyEnvironment } from '../../src/common/keys/api-key';
import { startLoggedChild } from '../logged-child';
import { RAW_WORKER_READY } from './raw-worker-ready';

export interface RawWorkerTarget {
  /** The environment Assay's own processes run with: their TEMPORAL_* settings are the raw worker's too. */
  temporalEnv: NodeJS.ProcessEnv;
  environment: KeyEnvironment;
  namespace: string;
  taskQueue: string;
}

/** Starts the raw engine's worker as a child process, its stderr to logFile. */
export function startRawWorker(target: RawWorkerTarget, logFile: string): ChildService {
  const env = { ...target.temporalEnv, RAW_KEY_ENVIRONMENT: target.environment, RAW_NAMESPACE: target.namespace, RAW_TASK_QUEUE: target.taskQueue };
  return startLoggedChild('raw-worker', path.join(__dirname, 'raw-worker.js'), env, logFile, true);
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
