import * as fs from 'node:fs';
import { startLoggedChild, stopChild, type ChildExit, type ChildService } from '../embedded/child-services';

const READY_TIMEOUT_MS = 120_000;
const RECHECK_MS = 250;
const GRACE_MS = 15_000;

export interface ClusterProcessSpec {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  logFile: string;
  /** Resolves once the process serves; `logOffset` is where its log stood when it was started. */
  ready(logOffset: number): Promise<boolean>;
}

/**
 * One process of the cluster, started again from the same spec (same ports, same files) after a
 * kill. Its output goes to its log file; `start` resolves once it is ready, and fails with the
 * end of its log if it exits first.
 */
export class ClusterProcess {
  private service?: ChildService;

  constructor(readonly spec: ClusterProcessSpec) {}

  get name(): string {
    return this.spec.name;
  }

  get alive(): boolean {
    const child = this.service?.process;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  get pid(): number | undefined {
    return this.service?.process.pid;
  }

  /** Resolves when the current run of the process ends. */
  get exited(): Promise<ChildExit> {
    if (!this.service) throw new Error(`${this.name} has not been started`);
    return this.service.exited;
  }

  async start(): Promise<void> {
    const { name, command, args, env, logFile } = this.spec;
    const logOffset = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
    const service = startLoggedChild(name, command, args, env, logFile);
    this.service = service;
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (!this.alive) throw new Error(`${name} exited before it was ready:\n${logTail(logFile, logOffset)}`);
      if (await this.spec.ready(logOffset).catch(() => false)) return;
      if (Date.now() > deadline) {
        await stopChild(service, GRACE_MS);
        throw new Error(`${name} not ready after ${READY_TIMEOUT_MS / 1000} s:\n${logTail(logFile, logOffset)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, RECHECK_MS));
    }
  }

  /** kill -9: no shutdown hook, nothing flushed. */
  async kill9(): Promise<void> {
    if (!this.service || !this.alive) return;
    this.service.process.kill('SIGKILL');
    await this.service.exited;
  }

  async stop(): Promise<void> {
    if (this.service) await stopChild(this.service, GRACE_MS);
  }
}

const TAIL_CHARS = 4096;

/** What the process wrote since `from`, at most the last few KiB. */
export function logTail(logFile: string, from: number): string {
  if (!fs.existsSync(logFile)) return '(no output)';
  const text = fs.readFileSync(logFile).subarray(from).toString('utf8');
  return text.slice(-TAIL_CHARS).trim() || '(no output)';
}

/** How many lines matching `pattern` the log has gained since `from`. */
export function countLogLines(logFile: string, from: number, pattern: RegExp): number {
  return fs.readFileSync(logFile).subarray(from).toString('utf8').split('\n').filter((line) => pattern.test(line)).length;
}
