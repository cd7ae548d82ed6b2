#!/usr/bin/env node
// Bundles the console (console/main.tsx, console/app.css, its icon) into dist/console/ for the API to
// serve at /console: one script and one stylesheet, minified, with nothing loaded from elsewhere.
// ELK's Web Worker, already minified, is copied beside them: only the review console's drawing loads it.
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const REPO_ROOT = path.resolve(__dirname, '..');
const OUT_DIR = path.join(REPO_ROOT, 'dist', 'console');

async function main() {
  const result = await esbuild.build({
    entryPoints: { app: path.join(REPO_ROOT, 'console', 'main.tsx') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: OUT_DIR,
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
  });
  await esbuild.build({ entryPoints: { app: path.join(REPO_ROOT, 'console', 'app.css') }, bundle: true, minify: true, outdir: OUT_DIR, logLevel: 'warning' });
  fs.copyFileSync(path.join(REPO_ROOT, 'console', 'favicon.svg'), path.join(OUT_DIR, 'favicon.svg'));
  const elkWorker = path.join(OUT_DIR, 'elk-worker.js');
  fs.copyFileSync(require.resolve('elkjs/lib/elk-worker.min.js'), elkWorker);
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  const elkBytes = fs.statSync(elkWorker).size;
  process.stdout.write(`[build] console bundled into ${path.relative(REPO_ROOT, OUT_DIR)} (${(bytes / 1024).toFixed(1)} KiB of script, and ELK's worker: ${(elkBytes / 1024).toFixed(1)} KiB)\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
