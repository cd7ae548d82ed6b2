import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTE_KEYS } from '../contract';
import { ARRIVAL_ORDER_DYNAMIC_CONFIG, FAIR_DISPATCH_DYNAMIC_CONFIG, dynamicConfigValues, type DynamicConfig } from '../common/temporal/fair-dispatch-config';
import { ASSAY_SERVER_DYNAMIC_CONFIG } from '../common/temporal/server-dynamic-config';
import type { ChildExit } from './child-services';
import { devServerEnvironment } from './dev-server-environment';
import { freePort } from './free-port';

export interface DevServerOptions {
  cliPath: string;
  /** Front-end gRPC port; omitted = a free one, chosen anew for each attempt. */
  port?: number;
  namespaces: string[];
  /** Web UI port, or 'free' for any free one; omitted = headless. */
  uiPort?: number | 'free';
  /** Where the Web UI sends payloads to decode (Temporal's remote codec protocol); omitted = none. */
  uiCodecEndpoint?: string;
  /** SQLite file for persistence; omitted = in memory. */
  dbFile?: string;
  /** Where the server's own output goes; omitted = kept in memory only to explain a failed start. */
  logFile?: string;
  readyTimeoutMs?: number;
  /** Dispatch by fairness key (FAIR_DISPATCH_DYNAMIC_CONFIG, the default) or, false, in arrival order. */
  fairness?: boolean;
}

export interface DevServer {
  address: string;
  port: number;
  uiPort?: number;
  process: ChildProcess;
  exited: Promise<ChildExit>;
  stop(): Promise<void>;
}

const SEARCH_ATTRIBUTE_TYPE_NAMES: Record<string, string> = { KEYWORD: 'Keyword', TEXT: 'Text', INT: 'Int', DATETIME: 'Datetime' };

// WAL survives process crashes (only a power loss can drop the last commits with synchronous=NORMAL)
// and is far faster than SQLite's default rollback journal; measured in docs/operations.md, "The
// embedded Temporal server".
export const SQLITE_PRAGMAS = ['journal_mode=wal', 'synchronous=normal'];

const DEV_SERVER_DYNAMIC_CONFIG: DynamicConfig = {
  ...ASSAY_SERVER_DYNAMIC_CONFIG,
  // Partitions spread a task queue over matching hosts; the dev server is one process, so four
  // (the default) buy nothing, and each partition is fair on its own while a poll takes from any
  // one: with one, dispatch order is exactly the fair order (and arrival order with fairness off).
  'matching.numTaskqueueReadPartitions': 1,
  'matching.numTaskqueueWritePartitions': 1,
  // The dev server has one history shard, and each shard's transfer queue is read at most 20 times
  // a second by default (sized for clusters of hundreds of shards). Past that, a new workflow's
  // first task waits up to 50 ms before matching sees it: a neighbour's tasks beside a batch spent
  // much of their tail there (docs/benchmarks.md, "Noisy neighbour").
  'history.transferProcessorMaxPollRPS': 200,
};

// Free ports are only free when checked: parallel test files, the chaos stacks and the server
// itself (it picks its HTTP, metrics and internal ports the same way) can take one before the bind.
const START_ATTEMPTS = 4;
const PORT_TAKEN = /address already in use/;

class PortTakenError extends Error {}

/**
 * Starts `temporal server start-dev` and resolves once every namespace answers. A start that
 * fails on a port taken meanwhile is tried again, on new ports where the caller left them open.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    const uiPort = options.uiPort === 'free' ? await freePort() : options.uiPort;
    try {
      return await startOnce(options, port, uiPort);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= START_ATTEMPTS) throw error;
    }
  }
}

async function startOnce(options: DevServerOptions, port: number, uiPort: number | undefined): Promise<DevServer> {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'warn'];
  for (const namespace of options.namespaces) args.push('--namespace', namespace);
  for (const key of SEARCH_ATTRIBUTE_KEYS) args.push('--search-attribute', `${key.name}=${SEARCH_ATTRIBUTE_TYPE_NAMES[key.type]}`);
  const dispatch = options.fairness === false ? ARRIVAL_ORDER_DYNAMIC_CONFIG : FAIR_DISPATCH_DYNAMIC_CONFIG;
  for (const value of dynamicConfigValues({ ...DEV_SERVER_DYNAMIC_CONFIG, ...dispatch })) args.push('--dynamic-config-value', value);
  if (uiPort === undefined) args.push('--headless');
  else args.push('--ui-port', String(uiPort), '--ui-disable-news-fetch');
  if (uiPort !== undefined && options.uiCodecEndpoint) args.push('--ui-codec-endpoint', options.uiCodecEndpoint);
  if (options.dbFile) {
    args.push('--db-filename', options.dbFile);
    for (const pragma of SQLITE_PRAGMAS) args.push('--sqlite-pragma', pragma);
  }
  const output = options.logFile ? fs.openSync(options.logFile, 'a+') : 'pipe';
  const child = spawn(options.cliPath, args, { env: devServerEnvironment(process.env), stdio: ['ignore', output, output] });
  const recentOutput = typeof output === 'number' ? tailOfFile(output) : keepTail(child);
  const address = `127.0.0.1:${port}`;
  const exited = new Promise<ChildExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitUntilReady(address, options.namespaces, options.readyTimeoutMs ?? 60_000, child);
  } catch (error) {
    await stop();
    const tail = recentOutput();
    if (PORT_TAKEN.test(tail)) throw new PortTakenError(`${(error as Error).message}: ${tail}`);
    throw tail ? new Error(`${(error as Error).message}; its last output:\n${tail}`) : error;
  } finally {
    if (typeof output === 'number') fs.closeSync(output);
  }
  return { address, port, uiPort, process: child, exited, stop };
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

const TAIL_CHARS = 4096;

/** The last few KiB the server wrote to its log file since this start (the file is appended to across restarts). */
function tailOfFile(fd: number): () => string {
  const startedAt = fs.fstatSync(fd).size;
  return () => {
    const end = fs.fstatSync(fd).size;
    const from = Math.max(startedAt, end - TAIL_CHARS);
    const buffer = Buffer.alloc(end - from);
    fs.readSync(fd, buffer, 0, buffer.length, from);
    return buffer.toString('utf8').trim();
  };
}

/** The last few KiB the server printed (when piped), drained continuously so the pipe never fills. */
function keepTail(child: ChildProcess, maxChars = TAIL_CHARS): () => string {
  let tail = '';
  const append = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-maxChars);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return () => tail.trim();
}
