'use strict';
// Runs before `npm start` and `npm test` so that both work on a fresh clone: installs the npm
// dependencies, the Temporal CLI and the build when they are missing or stale, and does nothing
// (quickly) when they are in place. Node built-ins only: it may run before `npm ci`.

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { provisionTemporalCli, TEMPORAL_CLI_VERSION } = require('./provision-temporal');

const REPO_ROOT = path.resolve(__dirname, '..');
const TOOLS_DIR = path.join(REPO_ROOT, '.tools');
const TEMPORAL_CLI_PATH_FILE = path.join(TOOLS_DIR, 'temporal-cli-path');
const DIST_DIR = path.join(REPO_ROOT, 'dist');
const SOURCE_DIRS = ['src', 'workflows', 'activities'].map((dir) => path.join(REPO_ROOT, dir));
// tsc skips re-emitting unchanged files, so after a build caused by a mere touch the newest output
// can stay older than the touched source; this stamp records that the build did run.
const BUILD_STAMP = path.join(DIST_DIR, '.build-stamp');

function say(message) {
  process.stderr.write(`[setup] ${message}\n`);
}

function mtimeMs(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function readFileOrNull(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function newestMtimeMs(dir, accept) {
  let newest = 0;
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const entryPath = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') newest = Math.max(newest, newestMtimeMs(entryPath, accept));
    } else if (accept(entry.name)) {
      newest = Math.max(newest, mtimeMs(entryPath));
    }
  }
  return newest;
}

function runNpm(args) {
  // Inside an npm script, npm_execpath is the npm that launched us; reuse it rather than whatever
  // `npm` the PATH holds.
  const npmCli = process.env.npm_execpath;
  const [command, commandArgs] = npmCli && npmCli.endsWith('.js') ? [process.execPath, [npmCli, ...args]] : ['npm', args];
  const result = spawnSync(command, commandArgs, {
    cwd: REPO_ROOT,
    stdio: ['ignore', process.stderr, process.stderr],
    shell: process.platform === 'win32' && command === 'npm',
  });
  if (result.status !== 0) {
    throw new Error(`npm ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}); see the output above`);
  }
}

function ensureDependencies() {
  const lockFile = path.join(REPO_ROOT, 'package-lock.json');
  const installedLockFile = path.join(REPO_ROOT, 'node_modules', '.package-lock.json');
  const hasLockFile = fs.existsSync(lockFile);
  let reason = null;
  if (!fs.existsSync(path.join(REPO_ROOT, 'node_modules'))) reason = 'node_modules is missing';
  else if (hasLockFile && mtimeMs(lockFile) > mtimeMs(installedLockFile)) reason = 'package-lock.json changed since the last install';
  if (!reason) {
    say('dependencies: up to date');
    return;
  }
  const command = hasLockFile ? 'ci' : 'install';
  say(`dependencies: ${reason}; running npm ${command}`);
  runNpm([command]);
}

async function ensureTemporalCli() {
  const { path: binary, route } = await provisionTemporalCli({ log: (message) => say(`temporal CLI: ${message}`) });
  const recorded = `${binary}\n`;
  if (readFileOrNull(TEMPORAL_CLI_PATH_FILE) !== recorded) {
    fs.mkdirSync(TOOLS_DIR, { recursive: true });
    fs.writeFileSync(TEMPORAL_CLI_PATH_FILE, recorded);
  }
  say(`temporal CLI ${TEMPORAL_CLI_VERSION}: ${route} (${binary})`);
}

function ensureBuild() {
  const newestSource = Math.max(...SOURCE_DIRS.map((dir) => newestMtimeMs(dir, (name) => name.endsWith('.ts'))));
  let reason = null;
  if (!fs.existsSync(DIST_DIR)) reason = 'dist/ is missing';
  else if (newestSource > newestMtimeMs(DIST_DIR, () => true)) reason = 'sources changed since the last build';
  if (!reason) {
    say('build: up to date');
    return;
  }
  say(`build: ${reason}; running npm run build`);
  runNpm(['run', 'build']);
  fs.writeFileSync(BUILD_STAMP, '');
}

async function main() {
  ensureDependencies();
  await ensureTemporalCli();
  ensureBuild();
}

main().catch((error) => {
  say(`failed: ${error.message}`);
  process.exitCode = 1;
});
