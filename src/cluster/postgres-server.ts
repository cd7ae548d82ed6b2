import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const OS_USER = 'postgres';

export interface PostgresServerOptions {
  /** The server binaries' directory (scripts/provision-postgres.js finds or installs one). */
  binDir: string;
  /** Holds the data directory (`data`), the socket and `postgres.log`; a data directory already there is reused. */
  baseDir: string;
  port: number;
  /** false turns fsync off: faster, for throwaway servers whose data may be lost with the machine. */
  durable: boolean;
  /** max_connections, when the server's clients need more than PostgreSQL's default of 100. */
  maxConnections?: number;
  /** The superuser's password, required over TCP when set (scram-sha-256); omitted = trust. Read only by the first start. */
  password?: string;
}

export interface PostgresServer {
  port: number;
  logFile: string;
  /** The postmaster's process id, from its pid file; the parent of every backend. */
  pid(): number;
  stop(): Promise<void>;
}

/**
 * A PostgreSQL server listening on loopback only, started with pg_ctl (initdb first when its data
 * directory is new). PostgreSQL refuses to run as root, so under root it runs as the `postgres`
 * OS user (Debian's `postgresql` package creates it), who then owns `baseDir`.
 */
export async function startPostgresServer(options: PostgresServerOptions): Promise<PostgresServer> {
  const { binDir, baseDir, port } = options;
  const dataDir = path.join(baseDir, 'data');
  const logFile = path.join(baseDir, 'postgres.log');
  fs.mkdirSync(baseDir, { recursive: true, mode: 0o700 });
  const serverUser = serverUserOf(baseDir);
  try {
    if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) await initdb(options, dataDir, serverUser);
    const serverOptions = [`-p ${port}`, '-c listen_addresses=127.0.0.1', `-k ${baseDir}`];
    if (options.maxConnections !== undefined) serverOptions.push(`-c max_connections=${options.maxConnections}`);
    if (!options.durable) serverOptions.push('-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off');
    await serverUser.run(path.join(binDir, 'pg_ctl'), ['-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', serverOptions.join(' '), 'start']);
  } catch (error) {
    const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '(no server log)';
    throw new Error(`could not start PostgreSQL from ${binDir}: ${(error as Error).message}\n${log}`);
  }
  return {
    port,
    logFile,
    pid: () => Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
    stop: async () => {
      // A terminal's Ctrl-C reaches the server too, which then stops by itself: nothing left to stop.
      if (!fs.existsSync(path.join(dataDir, 'postmaster.pid'))) return;
      await serverUser.run(path.join(binDir, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    },
  };
}

async function initdb(options: PostgresServerOptions, dataDir: string, serverUser: ServerUser): Promise<void> {
  const args = ['-D', dataDir, '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-instructions'];
  if (!options.durable) args.push('--no-sync');
  const passwordFile = path.join(options.baseDir, '.initdb-password');
  if (options.password === undefined) {
    args.push('-A', 'trust');
  } else {
    fs.writeFileSync(passwordFile, options.password, { mode: 0o600 });
    serverUser.own(passwordFile);
    args.push('--auth-local=peer', '--auth-host=scram-sha-256', `--pwfile=${passwordFile}`);
  }
  try {
    await serverUser.run(path.join(options.binDir, 'initdb'), args);
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
}

interface ServerUser {
  run(file: string, args: string[]): Promise<void>;
  own(file: string): void;
}

/** Runs PostgreSQL binaries as the current user, or as `postgres` when the current user is root. */
function serverUserOf(baseDir: string): ServerUser {
  if (process.getuid?.() !== 0) return { run: async (file, args) => void (await run(file, args)), own: () => {} };
  let ids: number[];
  try {
    ids = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, OS_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })));
  } catch {
    throw new Error(`PostgreSQL refuses to run as root and there is no "${OS_USER}" OS user to run it as; create one (Debian's "postgresql" package does).`);
  }
  const own = (file: string) => fs.chownSync(file, ids[0], ids[1]);
  own(baseDir);
  return { run: async (file, args) => void (await run('runuser', ['-u', OS_USER, '--', file, ...args])), own };
}
