import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import type { ChildExit, ChildService } from '../src/embedded/child-services';

export interface LoggedChildOptions {
  /** Its stdout piped to the bench (to wait for a ready line) rather than to the log. */
  pipeStdout?: boolean;
  /** Node's own flags, before the script (the API's heap settings). */
  nodeFlags?: readonly string[];
}

/** Starts a Node script as a child whose stdout and stderr go to a log file, so the report stays readable. */
export function startLoggedChild(name: string, script: string, env: NodeJS.ProcessEnv, logFile: string, { pipeStdout = false, nodeFlags = [] }: LoggedChildOptions = {}): ChildService {
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeFlags, script], { env, stdio: ['ignore', pipeStdout ? 'pipe' : log, log] });
  fs.closeSync(log);
  const exited = new Promise<ChildExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { name, process: child, exited };
}

// The SDK's log lines are coloured even into a file.
const ANSI_COLOURS = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** How many lines of a child's log are errors (pino level error or fatal, or a raw SDK ERROR line), with the commonest message. */
export function countLoggedErrors(logFile: string): { errors: number; commonest?: string } {
  if (!fs.existsSync(logFile)) return { errors: 0 };
  const messages = new Map<string, number>();
  let errors = 0;
  for (const line of fs.readFileSync(logFile, 'utf8').split('\n')) {
    const message = errorMessage(line);
    if (message === undefined) continue;
    errors += 1;
    messages.set(message, (messages.get(message) ?? 0) + 1);
  }
  const commonest = [...messages].sort((a, b) => b[1] - a[1])[0]?.[0];
  return { errors, commonest };
}

function errorMessage(line: string): string | undefined {
  if (line.startsWith('{')) {
    try {
      const entry = JSON.parse(line) as { level?: string; msg?: string; err?: { message?: string } };
      if (entry.level !== 'error' && entry.level !== 'fatal') return undefined;
      return (entry.err?.message ?? entry.msg ?? 'error').slice(0, 160);
    } catch {
      return undefined;
    }
  }
  const plain = line.replace(ANSI_COLOURS, '');
  return / ERROR /.test(plain) ? plain.slice(0, 160) : undefined;
}
