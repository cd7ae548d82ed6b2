import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '../..');

export interface SchemathesisRun {
  exitCode: number | null;
  output: string;
}

/** The command that runs the pinned schemathesis, installing it into .tools/ the first time. */
function schemathesisCommand(): string[] {
  const line = execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'provision-schemathesis.js'), '--quiet'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return line.trim().split(' ');
}

/** Runs `schemathesis --config-file=<configFile> run <args>` and collects its output; it reaches only what args name. */
export function runSchemathesis(configFile: string, args: string[], timeoutMs: number): Promise<SchemathesisRun> {
  const [command, ...prefix] = schemathesisCommand();
  // Run elsewhere than the checkout, so nothing it writes (Hypothesis' cache) lands in the repository.
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-schemathesis-'));
  const cleanUp = () => fs.rmSync(cwd, { recursive: true, force: true });
  return new Promise<SchemathesisRun>((resolve, reject) => {
    // No proxies from the environment: the run must stay on loopback.
    const child = spawn(command, [...prefix, `--config-file=${configFile}`, 'run', ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_PROXY: '*' },
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, output });
    });
  }).finally(cleanUp);
}
