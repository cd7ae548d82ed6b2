import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export type BuiltEntrypoint = 'api' | 'worker' | 'embedded';

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const DIST = path.join(__dirname, '../../dist/src');

/**
 * One of Assay's processes run from dist/ exactly as `npm run start:api` / `start:worker` run it,
 * so signals reach the real entrypoint. `npm test` builds dist/ first (pretest); a bare jest run
 * that finds it missing fails with what to do.
 */
export class BuiltService {
  readonly exited: Promise<ExitStatus>;
  private output = '';

  private constructor(
    readonly name: BuiltEntrypoint,
    private readonly child: ChildProcess,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /** Starts the entrypoint with only PATH and `env`, and waits until `ready` has matched `count` times in its output. */
  static async start(name: BuiltEntrypoint, env: Record<string, string>, ready: RegExp, count = 1, timeoutMs = 30_000): Promise<BuiltService> {
    const service = BuiltService.spawn(name, env);
    await service.waitFor(ready, count, timeoutMs);
    return service;
  }

  /** Starts the entrypoint with only PATH and `env`, without waiting: for a process expected to exit. */
  static spawn(name: BuiltEntrypoint, env: Record<string, string>): BuiltService {
    const script = path.join(DIST, name, 'main.js');
    if (!fs.existsSync(script)) throw new Error(`${script} is missing: run \`npm run build\` (npm test does it in pretest)`);
    const child = spawn(process.execPath, [script], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    return new BuiltService(name, child);
  }

  get pid(): number {
    return this.child.pid as number;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  get log(): string {
    return this.output;
  }

  signal(signal: NodeJS.Signals): void {
    if (this.alive) this.child.kill(signal);
  }

  /** SIGKILL if still running; for cleanup after a test that failed midway. */
  async kill(): Promise<void> {
    this.signal('SIGKILL');
    await this.exited;
  }

  async waitFor(pattern: RegExp, count: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    // Counted over the whole output: the SDK's log entries span several lines.
    const everywhere = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    const matches = () => this.output.match(everywhere)?.length ?? 0;
    while (matches() < count) {
      if (!this.alive) throw new Error(`${this.name} exited before printing ${pattern}; its output:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`${this.name} did not print ${pattern} ${count}× within ${timeoutMs} ms; its output:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
