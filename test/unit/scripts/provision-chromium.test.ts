import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { aptCalls, executable, fakeCommands, packageCacheDir, provisionInChild, type ProvisionCall } from '../../support/provisioning';

// Every case runs against a temporary .tools and system location, with stand-ins for apt-get and
// npm on PATH: nothing is installed and no network is used.

let workDir: string;
let toolsDir: string;
let systemChromium: string;
let aptLog: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provision-chromium-'));
  toolsDir = path.join(workDir, 'tools');
  systemChromium = path.join(workDir, 'usr', 'bin', 'chromium');
  const fakes = fakeCommands(workDir, `mkdir -p '${path.dirname(systemChromium)}' && printf '#!/bin/sh\\n' > '${systemChromium}' && chmod +x '${systemChromium}'`);
  aptLog = fakes.aptLog;
  env = { PATH: `${fakes.binDir}${path.delimiter}${process.env.PATH}` };
});

afterEach(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

function chromiumCall(overrides: Record<string, unknown> = {}): ProvisionCall {
  return { script: 'provision-chromium', fn: 'provisionChromium', options: { env, toolsDir, systemChromium, isRoot: true, ...overrides } };
}

function provision(overrides: Record<string, unknown> = {}) {
  return provisionInChild(chromiumCall(overrides))[0];
}

describe('CHROMIUM_PATH', () => {
  it('wins over everything else', () => {
    const configured = executable(path.join(workDir, 'my-chromium'));
    executable(systemChromium);

    expect(provision({ env: { ...env, CHROMIUM_PATH: configured } })).toMatchObject({ path: configured, route: 'CHROMIUM_PATH' });
  });

  it('fails naming the variable when it is not an executable file', () => {
    const missing = path.join(workDir, 'no-such-chromium');

    const outcome = provision({ env: { ...env, CHROMIUM_PATH: missing } });

    expect(outcome.error).toContain(`CHROMIUM_PATH=${missing} is not an executable file`);
    expect(aptCalls(aptLog)).toEqual([]);
  });
});

describe('finding one', () => {
  it("uses Debian's chromium when it is installed, without apt-get", () => {
    executable(systemChromium);

    expect(provision()).toMatchObject({ path: systemChromium, route: 'system' });
    expect(aptCalls(aptLog)).toEqual([]);
  });

  it('uses the npm build cached in .tools rather than installing', () => {
    const launcher = executable(path.join(packageCacheDir('provision-chromium', toolsDir), 'chromium'));

    expect(provision()).toMatchObject({ path: launcher, route: 'cached' });
    expect(aptCalls(aptLog)).toEqual([]);
  });

  it('keeps to the npm route with CHROMIUM_ROUTE=npm', () => {
    executable(systemChromium);
    const launcher = executable(path.join(packageCacheDir('provision-chromium', toolsDir), 'chromium'));

    expect(provision({ env: { ...env, CHROMIUM_ROUTE: 'npm' } })).toMatchObject({ path: launcher, route: 'cached' });
  });

  it('rejects an unknown CHROMIUM_ROUTE', () => {
    expect(provision({ env: { ...env, CHROMIUM_ROUTE: 'snap' } }).error).toBe('CHROMIUM_ROUTE=snap is not one of system, npm');
  });
});

describe('installing one', () => {
  it('installs the Debian package with apt-get as root, after one apt-get update', () => {
    const outcome = provision();

    expect(outcome).toMatchObject({ path: systemChromium, route: 'apt' });
    expect(aptCalls(aptLog)).toEqual(['-o DPkg::Lock::Timeout=600 update', '-o DPkg::Lock::Timeout=600 install -y --no-install-recommends chromium']);
    expect(outcome.log).toContainEqual(expect.stringMatching(/^installed via apt in \d+\.\d s$/));
  });

  it('runs apt-get update once for Chromium and PostgreSQL together', () => {
    const postgresRoot = path.join(workDir, 'usr', 'lib', 'postgresql');
    const postgresCall: ProvisionCall = { script: 'provision-postgres', fn: 'provisionPostgres', options: { env, toolsDir, systemRoot: postgresRoot, isRoot: true } };

    const [chromium, postgres] = provisionInChild(chromiumCall(), postgresCall);

    expect(chromium.route).toBe('apt');
    // The stand-in apt-get installs only Chromium, so PostgreSQL's install finds nothing.
    expect(postgres.error).toBeDefined();
    expect(aptCalls(aptLog).filter((call) => call.endsWith(' update'))).toHaveLength(1);
    expect(aptCalls(aptLog)).toContain('-o DPkg::Lock::Timeout=600 install -y --no-install-recommends postgresql');
  });

  it('fails with one line giving each route its reason when neither works', () => {
    const outcome = provision({ isRoot: false });

    expect(outcome.error).toMatch(/^Chromium not found and could not be installed \(apt: not root, so apt-get cannot install; npm: npm pack @sparticuz\/chromium@[\d.]+ failed: npm error code ENOTFOUND\); set CHROMIUM_PATH to use one you have$/);
    expect(aptCalls(aptLog)).toEqual([]);
  });
});
