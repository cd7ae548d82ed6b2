'use strict';
// Builds the real Temporal server that `npm run cluster` and `npm run test:cluster` run, from the
// Go module proxy, and prints the directory it is cached in (diagnostics go to stderr):
//   temporal-server      go.temporal.io/server/cmd/server
//   temporal-sql-tool    go.temporal.io/server/cmd/tools/sql
//   temporal-ui-server   github.com/temporalio/ui-server/v2/cmd/server (the UI that CLI 1.9.1 serves)
//   schema/postgresql/v12  the SQL schema of this server version, from the module's source
// The cache is .tools/temporal-server-<version>/, keyed by version; Go's own caches stay where Go
// keeps them. TEMPORAL_SERVER_DIR points at a directory laid out the same way instead.
// A cold build takes minutes (it compiles the server's whole dependency tree); it says how long.

const fs = require('node:fs');
const path = require('node:path');
const { DEFAULT_TOOLS_DIR, installIntoCache, isExecutableFile, lastLine, run, runProvisionCli, secondsSince } = require('./provision-support');

const SERVER_VERSION = '1.32.0';
const UI_SERVER_VERSION = '2.54.1';
const SERVER_MODULE = 'go.temporal.io/server';
const BINARIES = {
  'temporal-server': `${SERVER_MODULE}/cmd/server@v${SERVER_VERSION}`,
  'temporal-sql-tool': `${SERVER_MODULE}/cmd/tools/sql@v${SERVER_VERSION}`,
  'temporal-ui-server': `github.com/temporalio/ui-server/v2/cmd/server@v${UI_SERVER_VERSION}`,
};
const SCHEMA_DIR = path.join('schema', 'postgresql', 'v12');

function cacheDirFor(toolsDir) {
  return path.join(toolsDir, `temporal-server-${SERVER_VERSION}`);
}

/** Null when `dir` holds every binary and the schema, else what is missing. */
function verify(dir) {
  const missing = Object.keys(BINARIES).filter((name) => !isExecutableFile(path.join(dir, name)));
  if (!fs.existsSync(path.join(dir, SCHEMA_DIR, 'temporal', 'versioned'))) missing.push(SCHEMA_DIR);
  return missing.length === 0 ? null : `${dir} lacks ${missing.join(', ')}`;
}

/** Each `go install` writes a binary named after its package directory ("server"); one GOBIN each keeps them apart. */
function goInstall(name, target, stagingDir, env) {
  const gobin = path.join(stagingDir, `.gobin-${name}`);
  // Stripped of symbols: a third of the size, and these binaries are never debugged here.
  const built = run('go', ['install', '-ldflags=-s -w', target], { env: { ...env, GOBIN: gobin } });
  if (built.missing) return 'go not found (install Go 1.25 or newer)';
  if (!built.ok) return `go install ${target} failed: ${lastLine(built)}`;
  const [binary] = fs.readdirSync(gobin);
  fs.renameSync(path.join(gobin, binary), path.join(stagingDir, name));
  fs.rmSync(gobin, { recursive: true });
  return null;
}

function copySchema(stagingDir, env) {
  const downloaded = run('go', ['mod', 'download', '-json', `${SERVER_MODULE}@v${SERVER_VERSION}`], { env });
  if (!downloaded.ok) return `go mod download ${SERVER_MODULE}@v${SERVER_VERSION} failed: ${lastLine(downloaded)}`;
  const moduleDir = JSON.parse(downloaded.stdout).Dir;
  fs.cpSync(path.join(moduleDir, SCHEMA_DIR), path.join(stagingDir, SCHEMA_DIR), { recursive: true });
  return null;
}

/**
 * Finds or builds the server, its SQL tool and the UI server.
 * @param {{ env?: NodeJS.ProcessEnv, log?: (message: string) => void, toolsDir?: string }} [options]
 * @returns {Promise<{ path: string, route: 'TEMPORAL_SERVER_DIR' | 'cached' | 'go' }>}
 */
async function provisionTemporalServer({ env = process.env, log = () => {}, toolsDir = DEFAULT_TOOLS_DIR } = {}) {
  if (env.TEMPORAL_SERVER_DIR) {
    const problem = verify(path.resolve(env.TEMPORAL_SERVER_DIR));
    if (problem) throw new Error(`TEMPORAL_SERVER_DIR: ${problem}; unset it to build one`);
    return { path: path.resolve(env.TEMPORAL_SERVER_DIR), route: 'TEMPORAL_SERVER_DIR' };
  }
  const cacheDir = cacheDirFor(toolsDir);
  if (verify(cacheDir) === null) return { path: cacheDir, route: 'cached' };
  fs.mkdirSync(toolsDir, { recursive: true });
  const failure = await installIntoCache({
    cacheDir,
    verify,
    install: async (stagingDir) => {
      for (const [name, target] of Object.entries(BINARIES)) {
        const started = Date.now();
        log(`building ${name} (go install ${target}); a cold build takes minutes…`);
        const problem = goInstall(name, target, stagingDir, env);
        if (problem) return problem;
        log(`built ${name} in ${secondsSince(started)}`);
      }
      return copySchema(stagingDir, env);
    },
  });
  if (failure) throw new Error(`could not build Temporal server ${SERVER_VERSION}: ${failure}`);
  return { path: cacheDir, route: 'go' };
}

module.exports = { provisionTemporalServer, cacheDirFor, SERVER_VERSION, UI_SERVER_VERSION };

if (require.main === module) runProvisionCli('provision-temporal-server', provisionTemporalServer);
