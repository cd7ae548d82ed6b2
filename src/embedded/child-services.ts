import { spawn, type ChildProcess } from 'node:child_process';

export interface ChildService {
  name: string;
  process: ChildProcess;
  exited: Promise<number | null>;
}

/** Starts one of Assay's own entrypoints (API, worker) as a child that shares this terminal. */
export function startChild(name: string, script: string, env: NodeJS.ProcessEnv): ChildService {
  const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, process: child, exited };
}

/** SIGTERM, then SIGKILL if the child has not drained within the grace period. */
export async function stopChild(service: ChildService, graceMs: number): Promise<void> {
  if (service.process.exitCode !== null || service.process.signalCode !== null) return;
  service.process.kill('SIGTERM');
  const timer = setTimeout(() => service.process.kill('SIGKILL'), graceMs);
  await service.exited;
  clearTimeout(timer);
}
