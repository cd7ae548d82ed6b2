import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot as findRepoRoot } from '../../../src/common/repo-root';

// These cases stop at routes that need no network and no cache: an explicit path or PATH.
const repoRoot = findRepoRoot();
const script = path.join(repoRoot, 'scripts', 'provision-temporal.js');

function pinnedVersion(): string {
  const result = spawnSync(process.execPath, ['-p', `require(${JSON.stringify(script)}).TEMPORAL_CLI_VERSION`], {
    encoding: 'utf8',
  });
  return result.stdout.trim();
}

function fakeTemporal(dir: string, version: string): string {
  const binary = path.join(dir, 'temporal');
  fs.writeFileSync(binary, `#!/bin/sh\necho "temporal version ${version} (Server 1.0.0, UI 1.0.0)"\n`, { mode: 0o755 });
  return binary;
}

function provision(args: string[], env: NodeJS.ProcessEnv, cwd = repoRoot) {
  return spawnSync(process.execPath, [script, ...args], { cwd, env, encoding: 'utf8' });
}

let workDir: string;

beforeEach(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'provision-temporal-'));
});

afterEach(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe('TEMPORAL_CLI_PATH', () => {
  it('prints the absolute path of the configured binary and nothing else on stdout', () => {
    fakeTemporal(workDir, '0.0.1');

    const result = provision([], { PATH: process.env.PATH, TEMPORAL_CLI_PATH: './temporal' }, workDir);

    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${path.join(workDir, 'temporal')}\n`);
    expect(result.stderr).toContain('TEMPORAL_CLI_PATH');
  });

  it('fails with a message naming the variable when it is not an executable file', () => {
    const missing = path.join(workDir, 'no-such-temporal');

    const result = provision([], { PATH: process.env.PATH, TEMPORAL_CLI_PATH: missing });

    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`TEMPORAL_CLI_PATH=${missing} is not an executable file`);
  });
});

describe('temporal on PATH', () => {
  it('is used when it reports the pinned version', () => {
    const binary = fakeTemporal(workDir, pinnedVersion());

    const result = provision([], { PATH: `${workDir}${path.delimiter}${process.env.PATH}` });

    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${binary}\n`);
    expect(result.stderr).toContain('route: PATH');
  });
});

describe('command line', () => {
  it('writes nothing to stderr with --quiet', () => {
    const binary = fakeTemporal(workDir, pinnedVersion());

    const result = provision(['--quiet'], { PATH: process.env.PATH, TEMPORAL_CLI_PATH: binary });

    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${binary}\n`);
    expect(result.stderr).toBe('');
  });

  it('rejects unknown arguments with usage and exit code 2', () => {
    const result = provision(['--verbose'], { PATH: process.env.PATH });

    expect(result.status).toBe(2);
    expect(result.stderr).toContain('usage:');
  });
});
