import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

// The provision scripts run in a child process, as they do before `npm ci`: each call gets a
// fresh module state (apt-get update runs once per process) and nothing leaks into jest's.

const scriptsDir = path.resolve(__dirname, '..', '..', 'scripts');

export interface ProvisionCall {
  /** scripts/<script>.js */
  script: 'provision-chromium' | 'provision-postgres' | 'provision-nginx' | 'provision-model-server';
  fn: 'provisionChromium' | 'provisionPostgres' | 'provisionNginx' | 'provisionModelServer';
  /** Everything the function takes but `log`: env, toolsDir, isRoot, the system locations. */
  options: Record<string, unknown>;
}

export interface ProvisionOutcome {
  path?: string;
  route?: string;
  error?: string;
  log: string[];
}

/** Runs the calls one after the other in one Node process and returns what each gave. */
export function provisionInChild(...calls: ProvisionCall[]): ProvisionOutcome[] {
  const code = `
    (async () => {
      const outcomes = [];
      for (const { script, fn, options } of ${JSON.stringify(calls)}) {
        const log = [];
        try {
          const found = await require(${JSON.stringify(scriptsDir)} + '/' + script)[fn]({ ...options, log: (message) => log.push(message) });
          outcomes.push({ ...found, log });
        } catch (error) {
          outcomes.push({ error: error.message, log });
        }
      }
      process.stdout.write(JSON.stringify(outcomes));
    })();`;
  const result = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`provision child failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as ProvisionOutcome[];
}

/** The cache directory a provision script keeps its npm or pip install in, under `toolsDir`. */
export function packageCacheDir(script: ProvisionCall['script'], toolsDir: string): string {
  const result = spawnSync(process.execPath, ['-p', `require(${JSON.stringify(path.join(scriptsDir, script))}).cacheDirFor(${JSON.stringify(toolsDir)})`], { encoding: 'utf8' });
  return result.stdout.trim();
}

export function executable(file: string, body = 'exit 0'): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

/**
 * A directory of stand-ins for apt-get (logs its arguments, runs `onInstall` for `install`) and
 * npm (fails as an offline registry would), to put first on PATH.
 */
export function fakeCommands(dir: string, onInstall: string): { binDir: string; aptLog: string } {
  const binDir = path.join(dir, 'fake-bin');
  const aptLog = path.join(dir, 'apt-get.log');
  executable(path.join(binDir, 'apt-get'), `echo "$*" >> '${aptLog}'\ncase " $* " in *" install "*) ${onInstall} ;; esac`);
  executable(path.join(binDir, 'npm'), 'echo "npm error code ENOTFOUND" >&2\nexit 1');
  return { binDir, aptLog };
}

export function aptCalls(aptLog: string): string[] {
  return fs.existsSync(aptLog) ? fs.readFileSync(aptLog, 'utf8').trim().split('\n') : [];
}
