import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTE_KEYS } from '../../workflows/shared';

export interface DevServerOptions {
  cliPath: string;
  port: number;
  namespaces: string[];
  /** Web UI port; omitted = headless. */
  uiPort?: number;
  /** SQLite file for persistence; omitted = in memory. */
  dbFile?: string;
  /** Where the server's own output goes; omitted = kept in memory only to explain a failed start. */
  logFile?: string;
  readyTimeoutMs?: number;
}

export interface DevServer {
  address: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

const SEARCH_ATTRIBUTE_TYPE_NAMES: Record<string, string> = { KEYWORD: 'Keyword', TEXT: 'Text', INT: 'Int', DATETIME: 'Datetime' };

// WAL survives process crashes (only a power loss can drop the last commits with synchronous=NORMAL)
// and is far faster than SQLite's default rollback journal; measured in the README.
export const SQLITE_PRAGMAS = ['journal_mode=wal', 'synchronous=normal'];

// The CLI makes the server re-read search attributes from SQLite on every use, so attributes
// added while it runs apply at once. Ours are written with the namespaces before it starts, and
// the re-reads cost ~11 % of its CPU under polling (perf profile in BENCHMARKS.md).
const DYNAMIC_CONFIG = ['system.forceSearchAttributesCacheRefreshOnRead=false'];

/** Starts `temporal server start-dev` and resolves once every namespace answers. */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(options.port), '--log-level', 'warn'];
  for (const namespace of options.namespaces) args.push('--namespace', namespace);
  for (const key of SEARCH_ATTRIBUTE_KEYS) args.push('--search-attribute', `${key.name}=${SEARCH_ATTRIBUTE_TYPE_NAMES[key.type]}`);
  for (const value of DYNAMIC_CONFIG) args.push('--dynamic-config-value', value);
  if (options.uiPort === undefined) args.push('--headless');
  else args.push('--ui-port', String(options.uiPort), '--ui-disable-news-fetch');
  if (options.dbFile) {
    args.push('--db-filename', options.dbFile);
    for (const pragma of SQLITE_PRAGMAS) args.push('--sqlite-pragma', pragma);
  }
  const output = options.logFile ? fs.openSync(options.logFile, 'a') : 'pipe';
  const child = spawn(options.cliPath, args, { stdio: ['ignore', output, output] });
  const recentOutput = keepTail(child);
  const address = `127.0.0.1:${options.port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitUntilReady(address, options.namespaces, options.readyTimeoutMs ?? 60_000, child);
  } catch (error) {
    await stop();
    const tail = recentOutput();
    throw tail ? new Error(`${(error as Error).message}; its last output:\n${tail}`) : error;
  }
  return { address, process: child, stop };
}

async function waitUntilReady(address: string, namespaces: string[], timeoutMs: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`temporal server exited with code ${child.exitCode} before it was ready`);
    if (await namespacesAnswer(address, namespaces)) return;
    if (Date.now() > deadline) throw new Error(`temporal server at ${address} not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function namespacesAnswer(address: string, namespaces: string[]): Promise<boolean> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address, connectTimeout: 1000 });
    for (const namespace of namespaces) {
      await connection.workflowService.describeNamespace({ namespace });
    }
    return true;
  } catch {
    return false;
  } finally {
    await connection?.close();
  }
}

/** The last few KiB the server printed (when piped), drained continuously so the pipe never fills. */
function keepTail(child: ChildProcess, maxChars = 4096): () => string {
  let tail = '';
  const append = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-maxChars);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return () => tail.trim();
}
