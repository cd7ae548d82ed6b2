'use strict';
// Runs before `npm start` and `npm test` so that both work on a fresh clone: installs the npm
// dependencies, the Temporal CLI and the build when they are missing or stale, and does nothing
// (quickly) when they are in place. With --for-tests (npm test's pretest) it also provides what only
// the tests use, Chromium, the PostgreSQL server, nginx (the tests' TLS-terminating proxy) and the
// real model server (llama.cpp and SmolLM2), so that `npm start` never installs a browser or
// compiles a model server.
// Each tool's location is recorded in .tools/ for the code that runs it. Node built-ins only: it
// may run before `npm ci`.

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { provisionChromium } = require('./provision-chromium');
const { provisionModelServer } = require('./provision-model-server');
const { provisionNginx } = require('./provision-nginx');
const { provisionPostgres } = require('./provision-postgres');
const { DEFAULT_TOOLS_DIR: TOOLS_DIR, REPO_ROOT, npmCommand } = require('./provision-support');
const { provisionTemporalCli, TEMPORAL_CLI_VERSION } = require('./provision-temporal');

const USAGE = 'usage: node scripts/ensure-setup.js [--for-tests]';
const DIST_DIR = path.join(REPO_ROOT, 'dist');
const SOURCE_DIRS = ['src', 'workflows', 'activities', 'console'].map((dir) => path.join(REPO_ROOT, dir));
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
  const [command, commandArgs] = npmCommand(args);
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

/** Writes where a tool is to .tools/<recordName>, where the code that runs it looks. */
function record(recordName, location) {
  const recordFile = path.join(TOOLS_DIR, recordName);
  const recorded = `${location}\n`;
  if (readFileOrNull(recordFile) !== recorded) {
    fs.mkdirSync(TOOLS_DIR, { recursive: true });
    fs.writeFileSync(recordFile, recorded);
  }
}

async function ensureTool(label, provision, recordName) {
  const { path: location, route } = await provision({ log: (message) => say(`${label}: ${message}`) });
  record(recordName, location);
  say(`${label}: ${route} (${location})`);
}

function ensureBuild() {
  const newestSource = Math.max(...SOURCE_DIRS.map((dir) => newestMtimeMs(dir, (name) => /\.(ts|tsx|css)$/.test(name))));
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

async function main(args) {
  if (args.some((arg) => arg !== '--for-tests')) throw new Error(USAGE);
  ensureDependencies();
  await ensureTool(`temporal CLI ${TEMPORAL_CLI_VERSION}`, provisionTemporalCli, 'temporal-cli-path');
  if (args.includes('--for-tests')) {
    await ensureTool('chromium', provisionChromium, 'chromium-path');
    await ensureTool('postgresql', provisionPostgres, 'postgres-bin-dir');
    await ensureTool('nginx', provisionNginx, 'nginx-path');
    await ensureTool('model server', provisionModelServer, 'model-server');
  }
  ensureBuild();
}

main(process.argv.slice(2)).catch((error) => {
  say(`failed: ${error.message}`);
  process.exitCode = 1;
});
