'use strict';
// Finds or installs the pinned schemathesis (the OpenAPI fuzzer test/e2e/openapi-fuzz.test.ts runs)
// and prints the command that runs it on stdout, diagnostics on stderr. Like provision-temporal.js
// it uses Node built-ins only and installs from PyPI with pip: into a virtual environment under
// .tools/, so the project's Python packages never mix with the machine's.

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const SCHEMATHESIS_VERSION = '4.32.5';

const REPO_ROOT = path.resolve(__dirname, '..');
const DEFAULT_TOOLS_DIR = path.join(REPO_ROOT, '.tools');
const PYTHON_COMMANDS = ['python3', 'python'];
const OUTPUT_TAIL_LINES = 8;

function venvDirFor(toolsDir) {
  return path.join(toolsDir, `schemathesis-${SCHEMATHESIS_VERSION}`);
}

function venvPython(venvDir) {
  return process.platform === 'win32' ? path.join(venvDir, 'Scripts', 'python.exe') : path.join(venvDir, 'bin', 'python');
}

function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  return { ok: result.status === 0, output: `${result.stdout || ''}${result.stderr || ''}`, error: result.error };
}

function tail(text) {
  return (text || '').trim().split('\n').slice(-OUTPUT_TAIL_LINES).join('\n');
}

/** The x.y.z the venv's schemathesis reports, or null when it does not run. */
function installedVersion(venvDir) {
  const python = venvPython(venvDir);
  if (!fs.existsSync(python)) return null;
  const result = run(python, ['-m', 'schemathesis.cli', '--version'], { timeout: 60_000 });
  const match = result.ok ? /(\d+\.\d+\.\d+)/.exec(result.output) : null;
  return match ? match[1] : null;
}

/**
 * A venv records its own path in its scripts, so it is built where it will live. A marker file
 * written last tells a finished install from one that was interrupted, which is removed and redone.
 */
function install(toolsDir, env, log) {
  const venvDir = venvDirFor(toolsDir);
  const marker = path.join(venvDir, '.installed');
  if (fs.existsSync(marker) && installedVersion(venvDir) === SCHEMATHESIS_VERSION) return venvDir;
  const python = PYTHON_COMMANDS.find((command) => run(command, ['-c', 'import sys; assert sys.version_info >= (3, 9)'], { env }).ok);
  if (!python) throw new Error(`none of ${PYTHON_COMMANDS.join(', ')} is Python 3.9 or newer`);
  fs.rmSync(venvDir, { recursive: true, force: true });
  fs.mkdirSync(toolsDir, { recursive: true });
  log(`${python} -m venv ${venvDir}`);
  const created = run(python, ['-m', 'venv', venvDir], { env });
  if (!created.ok) throw new Error(`${python} -m venv failed:\n${tail(created.output)}`);
  log(`pip install schemathesis==${SCHEMATHESIS_VERSION}`);
  const pipArgs = ['-m', 'pip', 'install', '--no-input', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`];
  const installed = run(venvPython(venvDir), pipArgs, { env: { ...env, PIP_ROOT_USER_ACTION: 'ignore' } });
  if (!installed.ok) throw new Error(`pip install failed:\n${tail(installed.output)}`);
  const version = installedVersion(venvDir);
  if (version !== SCHEMATHESIS_VERSION) throw new Error(`installed schemathesis reports ${version ?? 'nothing'}, not ${SCHEMATHESIS_VERSION}`);
  fs.writeFileSync(marker, `${SCHEMATHESIS_VERSION}\n`);
  return venvDir;
}

/**
 * Finds or installs the pinned schemathesis.
 * @param {{ env?: NodeJS.ProcessEnv, log?: (message: string) => void, toolsDir?: string }} [options]
 * @returns {{ command: string, args: string[] }} what runs `schemathesis` (append its arguments)
 */
function provisionSchemathesis({ env = process.env, log = () => {}, toolsDir = DEFAULT_TOOLS_DIR } = {}) {
  const venvDir = install(toolsDir, env, log);
  return { command: venvPython(venvDir), args: ['-m', 'schemathesis.cli'] };
}

function main(args) {
  const unknown = args.filter((arg) => arg !== '--quiet');
  if (unknown.length > 0) {
    process.stderr.write('usage: node scripts/provision-schemathesis.js [--quiet]\n');
    return 2;
  }
  const log = args.includes('--quiet') ? () => {} : (message) => process.stderr.write(`provision-schemathesis: ${message}\n`);
  try {
    const { command, args: prefix } = provisionSchemathesis({ log });
    process.stdout.write(`${[command, ...prefix].join(' ')}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`provision-schemathesis: ${error.message}\n`);
    return 1;
  }
}

module.exports = { provisionSchemathesis, SCHEMATHESIS_VERSION };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
