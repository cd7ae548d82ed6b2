import * as path from 'node:path';
import * as readline from 'node:readline';
import { describeChildExit, type ChildService } from '../../src/embedded/child-services';
import { startLoggedChild } from '../logged-child';
import { RAW_WORKER_READY } from './raw-worker-ready';

/** Starts the raw engine's worker as a child process, its stderr to logFile. */
export function startRawWorker(address: string, namespace: string, taskQueue: string, logFile: string): ChildService {
  const env = { ...process.env, RAW_TEMPORAL_ADDRESS: address, RAW_NAMESPACE: namespace, RAW_TASK_QUEUE: taskQueue };
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
