import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';

export interface ServiceProcessOptions {
  name: string;
  /** The built entrypoint, run with this Node. */
  script: string;
  env: NodeJS.ProcessEnv;
  /** stdout and stderr are appended here, so a failed run can be read afterwards. */
  logFile: string;
  /** A line of output that says the service is ready; without one, it is ready once spawned. */
  readyLine?: RegExp;
  /** How many such lines (a worker logs one per namespace). */
  readyLines?: number;
  readyTimeoutMs?: number;
}

/** One of Assay's own processes (API or worker), started as `npm run start:*` starts it, killable with SIGKILL. */
export class ServiceProcess {
  readonly exited: Promise<void>;
  private readonly child: ChildProcess;

  private constructor(
    readonly name: string,
    options: ServiceProcessOptions,
  ) {
    const log = fs.createWriteStream(options.logFile, { flags: 'a' });
    this.child = spawn(process.execPath, [options.script], { env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.pipe(log, { end: false });
    this.child.stderr?.pipe(log, { end: false });
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
  }

  static async start(options: ServiceProcessOptions): Promise<ServiceProcess> {
    const service = new ServiceProcess(options.name, options);
    if (options.readyLine) await service.waitForLines(options.readyLine, options.readyLines ?? 1, options.readyTimeoutMs ?? 60_000, options.logFile);
    return service;
  }

  get pid(): number {
    return this.child.pid as number;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** kill -9: no shutdown hook, no draining, nothing flushed. */
  async kill9(): Promise<void> {
    if (this.alive) process.kill(this.child.pid as number, 'SIGKILL');
    await this.exited;
  }

  /** SIGTERM, then SIGKILL if it has not stopped within the grace period. */
  async stop(graceMs = 15_000): Promise<void> {
    if (!this.alive) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  private waitForLines(pattern: RegExp, count: number, timeoutMs: number, logFile: string): Promise<void> {
    const streams = [this.child.stdout, this.child.stderr].flatMap((stream) => (stream ? [stream] : []));
    return new Promise((resolve, reject) => {
      let seen = 0;
      const listeners = streams.map((stream) => {
        let partial = '';
        const onData = (chunk: Buffer) => {
          const lines = (partial + chunk.toString('utf8')).split('\n');
          partial = lines.pop() ?? '';
          seen += lines.filter((line) => pattern.test(line)).length;
          if (seen >= count) finish();
        };
        stream.on('data', onData);
        return () => stream.off('data', onData);
      });
      const finish = (error?: Error) => {
        clearTimeout(timer);
        listeners.forEach((remove) => remove());
        this.child.off('exit', onExit);
        if (error) reject(error);
        else resolve();
      };
      const onExit = (code: number | null) => finish(new Error(`${this.name} exited (code ${code}) before it was ready; see ${logFile}`));
      const timer = setTimeout(() => finish(new Error(`${this.name} not ready after ${timeoutMs} ms; see ${logFile}`)), timeoutMs);
      this.child.once('exit', onExit);
    });
  }
}
