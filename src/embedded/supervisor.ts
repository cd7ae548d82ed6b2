import type { Logger } from 'pino';
import { describeChildExit, type ChildExit, type RunningChild } from './child-services';
import { RESTART_LIMITS, RestartPolicy, type RestartLimits } from './restart-policy';

export interface SuperviseOptions {
  /** Where the child writes its output when not to the terminal: named when it crashes, as the place to look. */
  outputIn?: string;
}

/**
 * Keeps `npm start`'s children running: one that ends without being asked to is started again
 * after its RestartPolicy's backoff, each crash and restart logged with the child's name and pid.
 * On a crash loop it gives up on that child and calls `onGiveUp`; once stopping, nothing restarts.
 */
export class Supervisor {
  private readonly children: KeptChild[] = [];
  private readonly keeping: Keeping;
  private stopping = false;
  private stopped?: Promise<void>;

  constructor(log: Logger, onGiveUp: (name: string) => void, limits: Readonly<RestartLimits> = RESTART_LIMITS) {
    this.keeping = { log, onGiveUp, limits, stopping: () => this.stopping };
  }

  /**
   * Starts the child and keeps it running; resolves with its first start (what it says of itself,
   * such as the dev server's address: a restart may replace the process, not that). A failing
   * first start rejects: there is nothing to keep yet.
   */
  async supervise<T extends RunningChild>(name: string, start: () => Promise<T>, options: SuperviseOptions = {}): Promise<T> {
    const first = await start();
    this.keeping.log.info({ child: name, pid: first.process.pid }, `${name} started`);
    const output = options.outputIn ? ` (its output: ${options.outputIn})` : '';
    this.children.push(new KeptChild(name, start, output, first, this.keeping));
    return first;
  }

  /**
   * Restarts nothing from now on, then stops the children one at a time, the last started first:
   * each was started after what it needs (the worker and the API after Temporal), so each stops
   * while what it needs to finish its work is still there. Calling it again waits for the same stop.
   */
  stop(): Promise<void> {
    this.stopped ??= this.stopInOrder();
    return this.stopped;
  }

  private async stopInOrder(): Promise<void> {
    this.stopping = true;
    for (const child of this.children) child.cutPauseShort();
    for (const child of [...this.children].reverse()) await child.stop();
  }
}

/** What the supervisor shares with each child it keeps. */
interface Keeping {
  log: Logger;
  onGiveUp: (name: string) => void;
  limits: Readonly<RestartLimits>;
  stopping(): boolean;
}

/** One supervised child: the loop that restarts it until the supervisor stops or gives up on it. */
class KeptChild {
  private readonly policy: RestartPolicy;
  private readonly kept: Promise<void>;
  private wake?: () => void;

  constructor(
    private readonly name: string,
    private readonly start: () => Promise<RunningChild>,
    private readonly output: string,
    private current: RunningChild,
    private readonly keeping: Keeping,
  ) {
    this.policy = new RestartPolicy(keeping.limits);
    this.kept = this.keep();
  }

  cutPauseShort(): void {
    this.wake?.();
  }

  /** Stops the running child; one being started again meanwhile is stopped by the loop once it is up. */
  async stop(): Promise<void> {
    await this.current.stop();
    await this.kept;
  }

  private async keep(): Promise<void> {
    let startedAt = Date.now();
    for (;;) {
      const exit = await this.current.exited;
      if (this.keeping.stopping()) return this.reportEndWhileStopping(exit);
      if (!(await this.restart(`${describeChildExit(this.name, exit, false)}${this.output}`, Date.now() - startedAt))) return;
      // Stopping began while it started: stop() may already have stopped the process it replaced.
      if (this.keeping.stopping()) return this.current.stop();
      startedAt = Date.now();
      this.keeping.log.info({ child: this.name, pid: this.current.process.pid }, `${this.name} restarted`);
    }
  }

  /** Starts the child again after each backoff until a start succeeds; false once it gave up or the supervisor is stopping. */
  private async restart(why: string, ranForMs: number): Promise<boolean> {
    for (;;) {
      const decision = this.policy.afterCrash(Date.now(), ranForMs);
      if (!decision.restart) {
        const window = seconds(this.keeping.limits.crashWindowMs);
        this.keeping.log.error({ child: this.name, crashes_in_window: decision.crashesInWindow }, `${why}; giving up on ${this.name} after ${decision.crashesInWindow} crashes within ${window}`);
        this.keeping.onGiveUp(this.name);
        return false;
      }
      this.keeping.log.warn({ child: this.name, restart_in_ms: decision.delayMs }, `${why}; restarting it in ${seconds(decision.delayMs)}`);
      await this.pause(decision.delayMs);
      if (this.keeping.stopping()) return false;
      try {
        this.current = await this.start();
        return true;
      } catch (error) {
        if (this.keeping.stopping()) return false;
        // A start that fails (the dev server not ready in time) is one more crash of the child.
        why = `${this.name} did not start again: ${error instanceof Error ? error.message : String(error)}${this.output}`;
        ranForMs = 0;
      }
    }
  }

  private reportEndWhileStopping(exit: ChildExit): void {
    const report = describeChildExit(this.name, exit, true);
    if (report) this.keeping.log.warn({ child: this.name, exit_code: exit.code, signal: exit.signal }, report);
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}
