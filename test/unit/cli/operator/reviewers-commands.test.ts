import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ExitCode } from '../../../../src/cli/exit-codes';
import { runOperatorCommand, type OperatorRun } from '../../../support/operator-cli';
import { registerReviewersCommands } from '../../../../src/cli/operator/reviewers-commands';
import { AppConfig } from '../../../../src/common/config/app-config';
import { hashCredential } from '../../../../src/common/credentials/credential-format';
import { Storage } from '../../../../src/common/storage/storage';

const NOW = new Date('2030-01-01T00:00:00.000Z');
let dataDir: string;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-reviewers-cli-'));
});

afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs `assay reviewers <args>` in-process on a fresh SQLite store. */
function reviewers(...args: string[]): Promise<OperatorRun> {
  return runOperatorCommand(registerReviewersCommands, { DATA_DIR: dataDir }, () => NOW, ['reviewers', ...args]);
}

async function add(name: string, ...flags: string[]): Promise<{ id: string; name: string; env: string; credential: string }> {
  const run = await reviewers('add', name, '--json', '--actor', 'ops-lead', ...flags);
  expect(run.exitCode).toBe(ExitCode.Succeeded);
  return JSON.parse(run.stdout);
}

describe('assay reviewers', () => {
  it('prints a new credential once and stores only its hash', async () => {
    const run = await reviewers('add', 'alice');
    expect(run.exitCode).toBe(ExitCode.Succeeded);
    expect(run.stdout).toMatch(/^assay_rvw_test_[A-Za-z0-9_-]{32}\n\(id rvw_[0-9A-Z]{26}, reviewer alice, env test, no groups; store it now, it cannot be shown again\)\n$/);
    const credential = run.stdout.split('\n')[0];
    const storage = await Storage.open(new AppConfig({ DATA_DIR: dataDir }));
    try {
      const [stored] = await storage.reviewers.list();
      expect(stored.hash.equals(hashCredential(credential))).toBe(true);
      expect(stored.groups).toEqual([]);
      expect(JSON.stringify({ ...stored, hash: undefined })).not.toContain(credential.slice(15));
    } finally {
      await storage.close();
    }
  });

  it('lists credentials by prefix, never the secret, with their state', async () => {
    const alice = await add('alice', '--env', 'live');
    const bob = await add('bob');
    expect((await reviewers('revoke', bob.id)).stdout).toBe(`revoked ${bob.id}\n`);
    const listed = (await reviewers('list')).stdout;
    expect(listed).toContain(`${alice.id}  ${alice.credential.slice(0, 'assay_rvw_live_'.length + 6)}…  alice  env=live  groups=-  created ${NOW.toISOString()}  active`);
    expect(listed).toContain(`${bob.id}`);
    expect(listed).toContain(`revoked ${NOW.toISOString()}`);
    expect(listed).not.toContain(alice.credential);
  });

  it('stores the groups given with --group, lists them and audits them', async () => {
    const run = await reviewers('add', 'rita', '--group', 'network', '--group', 'security', '--group', 'network', '--actor', 'ops-lead');
    expect(run.exitCode).toBe(ExitCode.Succeeded);
    expect(run.stdout).toContain(', reviewer rita, env test, groups network,security; store it now');
    const json = await add('nina', '--group', 'security');
    expect(json).toEqual({ id: expect.stringMatching(/^rvw_/), name: 'nina', env: 'test', groups: ['security'], credential: expect.any(String) });
    expect((await reviewers('list')).stdout).toMatch(/ {2}rita {2}env=test {2}groups=network,security {2}created /);
    const listed = JSON.parse((await reviewers('list', '--json')).stdout) as Array<{ name: string; groups: string[] }>;
    expect(listed.map(({ name, groups }) => ({ name, groups }))).toEqual([
      { name: 'rita', groups: ['network', 'security'] },
      { name: 'nina', groups: ['security'] },
    ]);
    expect((await reviewers('audit')).stdout).toContain(`  rita  env=test  {"groups":"network,security"}`);
  });

  it('refuses a group that is not a group name, or too many, changing nothing', async () => {
    for (const group of ['Network', '-net', 'a b', 'x'.repeat(33)]) {
      const run = await reviewers('add', 'rita', '--group', group);
      expect(run.exitCode).toBe(ExitCode.Usage);
      expect(run.stderr).toContain(`group "${group}" must be 1-32 lowercase letters`);
    }
    const tooMany = Array.from({ length: 21 }, (_, index) => ['--group', `g${index}`]).flat();
    const run = await reviewers('add', 'rita', ...tooMany);
    expect(run.exitCode).toBe(ExitCode.Usage);
    expect(run.stderr).toContain('at most 20 groups');
    expect((await reviewers('list', '--json')).stdout).toBe('[]\n');
  });

  it('refuses a second active credential with the same name in one environment, but not after a revoke', async () => {
    const first = await add('alice');
    const second = await reviewers('add', 'alice');
    expect(second.exitCode).toBe(ExitCode.Refused);
    expect(second.stderr).toContain('already exists in test');
    expect((await reviewers('add', 'alice', '--env', 'live')).exitCode).toBe(ExitCode.Succeeded);
    await reviewers('revoke', first.id);
    expect((await reviewers('add', 'alice')).exitCode).toBe(ExitCode.Succeeded);
  });

  it('refuses a name that is not a plain identifier, and an unknown or already revoked id', async () => {
    for (const name of ['Alice', ' alice', 'a b', '-x', 'x'.repeat(65)]) {
      expect((await reviewers('add', name)).exitCode).toBe(ExitCode.Usage);
    }
    const alice = await add('alice');
    expect((await reviewers('revoke', alice.id)).exitCode).toBe(ExitCode.Succeeded);
    expect((await reviewers('revoke', alice.id)).exitCode).toBe(ExitCode.NotFound);
    expect((await reviewers('revoke', 'rvw_nothing')).exitCode).toBe(ExitCode.NotFound);
  });

  it('audits every add and revoke with the actor and reason, never the secret', async () => {
    const alice = await add('alice');
    await reviewers('revoke', alice.id, '--reason', 'left the team', '--actor', 'ops-lead');
    const run = await reviewers('audit', '--json');
    const entries = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    expect(entries).toEqual([
      expect.objectContaining({ action: 'add', actor: 'ops-lead', reviewerId: alice.id, name: 'alice', environment: 'test', details: {} }),
      expect.objectContaining({ action: 'revoke', actor: 'ops-lead', reviewerId: alice.id, details: { reason: 'left the team' } }),
    ]);
    expect(run.stdout).not.toContain(alice.credential);
    expect((await reviewers('audit')).stdout).toContain(`ops-lead  revoke  ${alice.id}  alice  env=test  {"reason":"left the team"}`);
  });
});
