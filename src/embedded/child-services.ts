import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';

/** How a child ended: by a code of its own, or by a signal (then `code` is null). */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildService {
  name: string;
  process: ChildProcess;
  exited: Promise<ChildExit>;
}

/** Starts one of Assay's own entrypoints (API, worker) as a child that shares this terminal, Node started with `nodeFlags`. */
export function startChild(name: string, script: string, env: NodeJS.ProcessEnv, nodeFlags: readonly string[] = []): ChildService {
  const child = spawn(process.execPath, [...nodeFlags, script], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise<ChildExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { name, process: child, exited };
}

/**
 * Starts any program as a child whose output is appended to `logFile` (`npm run cluster` runs a
 * dozen processes; their output would bury the banner in a terminal).
 */
export function startLoggedChild(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): ChildService {
  const output = fs.openSync(logFile, 'a');
  const child = spawn(command, args, { env, stdio: ['ignore', output, output] });
  fs.closeSync(output);
  const exited = new Promise<ChildExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { name, process: child, exited };
}

/** A started child as the Supervisor keeps it: its process, how it ends, and how to stop it. */
export interface RunningChild {
  process: ChildProcess;
  exited: Promise<ChildExit>;
  stop(): Promise<void>;
}

/** The child as the Supervisor keeps it: stopped by SIGTERM, then SIGKILL after `graceMs`. */
export function runningChild(service: ChildService, graceMs: number): RunningChild {
  return { process: service.process, exited: service.exited, stop: () => stopChild(service, graceMs) };
}

/** SIGTERM, then SIGKILL if the child has not drained within the grace period. */
export async function stopChild(service: ChildService, graceMs: number): Promise<void> {
  if (service.process.exitCode !== null || service.process.signalCode !== null) return;
  service.process.kill('SIGTERM');
  const timer = setTimeout(() => service.process.kill('SIGKILL'), graceMs);
  await service.exited;
  clearTimeout(timer);
}

/**
 * The supervisor's log line for a child that ended, or undefined when there is nothing to report:
 * while the supervisor is stopping everything, a child ending cleanly or by the SIGTERM (or the
 * terminal's SIGINT) that stops it is the expected outcome, not news.
 */
export function describeChildExit(name: string, exit: ChildExit, supervisorStopping: boolean): string | undefined {
  const how = exit.signal ? `stopped by ${exit.signal}` : `exited with code ${exit.code}`;
  if (!supervisorStopping) return `${name} ${how} unexpectedly`;
  const expected = exit.code === 0 || exit.signal === 'SIGTERM' || exit.signal === 'SIGINT';
  return expected ? undefined : `${name} ${how} while stopping`;
}
