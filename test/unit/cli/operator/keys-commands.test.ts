import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ExitCode } from '../../../../src/cli/exit-codes';
import { runOperatorCommand, type OperatorRun } from '../../../support/operator-cli';
import { registerKeysCommands } from '../../../../src/cli/operator/keys-commands';
import { parseGracePeriod } from '../../../../src/cli/operator/keys-duration';
import { defaultOperatorActor } from '../../../../src/common/credentials/operator-actor';
import { AppConfig } from '../../../../src/common/config/app-config';
import { generateEncryptionKeyEntry } from '../../../../src/common/crypto/encryption-keys';
import { Storage } from '../../../../src/common/storage/storage';
import { ApiWithoutTemporal } from '../../../support/api-without-temporal';

const NOW = new Date('2030-01-01T00:00:00.000Z');
let dataDir: string;

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-keys-cli-'));
  // As where an operator issues keys: an API with encryption keys has started on the store and said so.
  const storage = await Storage.open(new AppConfig({ DATA_DIR: dataDir }));
  await storage.apiEncryption.record({ productionData: 'encrypted', reportedAt: NOW.toISOString() });
  await storage.close();
});

afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Run = OperatorRun;

/** Runs `assay keys <args>` in-process on a fresh SQLite key store. */
async function keys(...args: string[]): Promise<Run> {
  return keysWithEnv({ DATA_DIR: dataDir }, ...args);
}

async function keysWithEnv(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return runOperatorCommand(registerKeysCommands, env, () => NOW, ['keys', ...args]);
}

async function issue(org = 'acme', env = 'test'): Promise<{ id: string; key: string }> {
  return JSON.parse((await keys('issue', '--org', org, '--env', env, '--json')).stdout);
}

describe('assay keys issue and list', () => {
  it('prints a new key once, with its id, and says it cannot be shown again', async () => {
    const run = await keys('issue', '--org', 'acme', '--env', 'live');
    expect(run.stdout).toMatch(/^assay_live_[A-Za-z0-9_-]{32}\n\(id key_[0-9A-Z]{26}, org acme, env live; store it now, it cannot be shown again\)\n$/);
  });

  it('lists prefix, id, organisation, environment, created, last used and state, never the secret', async () => {
    const issued = await issue();
    const run = await keys('list');
    expect(run.stdout).toBe(
      `${issued.id}  ${issued.key.slice(0, 17)}…  org=acme  env=test  created ${NOW.toISOString()}  last used never  active\n`,
    );
    expect(run.stdout).not.toContain(issued.key.slice(17));
  });
});

describe('assay keys issue --env live asks the deployment, not its own environment', () => {
  let api: ApiWithoutTemporal | undefined;

  afterEach(async () => {
    await api?.stop();
    api = undefined;
  });

  /** `assay keys issue --env live` with `cliEnv`, on the store of an API started with `apiEnv`. */
  async function issueLiveBeside(apiEnv: Record<string, string>, cliEnv: Record<string, string>): Promise<{ run: Run; listed: string }> {
    api = await ApiWithoutTemporal.start(apiEnv);
    const storeEnv = { DATA_DIR: api.config.values.DATA_DIR };
    const run = await keysWithEnv({ ...storeEnv, ...cliEnv }, 'issue', '--org', 'acme', '--env', 'live');
    return { run, listed: (await keysWithEnv(storeEnv, 'list')).stdout };
  }

  it('refuses while the API runs without encryption keys, whatever keys the CLI has, and stores nothing', async () => {
    const { run, listed } = await issueLiveBeside({ PAYLOAD_ENCRYPTION: 'required' }, { PAYLOAD_ENCRYPTION_KEYS: generateEncryptionKeyEntry('cli') });
    expect(run).toMatchObject({ stdout: '', exitCode: ExitCode.Usage });
    expect(run.stderr).toMatch(/^assay: Invalid configuration:\n {2}PAYLOAD_ENCRYPTION_KEYS: live API keys need payload encryption, and the API that started last \(at .*\) has no encryption key: set PAYLOAD_ENCRYPTION_KEYS or PAYLOAD_ENCRYPTION_KEYS_FILE for the API and the workers, or PAYLOAD_ENCRYPTION=off to store production data in plaintext\n$/);
    expect(listed).toBe('');
  });

  it('issues once the API runs with encryption keys, though the CLI has none', async () => {
    const { run, listed } = await issueLiveBeside({ PAYLOAD_ENCRYPTION_KEYS: generateEncryptionKeyEntry('api') }, {});
    expect(run.exitCode).toBe(ExitCode.Succeeded);
    expect(listed).toContain('env=live');
  });

  it('issues when the API was told to keep production in plaintext, whatever the CLI is told', async () => {
    const { run } = await issueLiveBeside({ PAYLOAD_ENCRYPTION: 'off' }, { PAYLOAD_ENCRYPTION: 'required' });
    expect(run.exitCode).toBe(ExitCode.Succeeded);
  });

  it('refuses before any API has started on the store, whatever keys the CLI has', async () => {
    const untouched = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-keys-cli-'));
    try {
      const run = await keysWithEnv({ DATA_DIR: untouched, PAYLOAD_ENCRYPTION_KEYS: generateEncryptionKeyEntry('cli') }, 'issue', '--org', 'acme', '--env', 'live');
      expect(run).toMatchObject({ stdout: '', exitCode: ExitCode.Usage });
      expect(run.stderr).toContain('live API keys need payload encryption, and no API has started on this key store yet to say whether it has any: start the API');
    } finally {
      fs.rmSync(untouched, { recursive: true, force: true });
    }
  });
});

describe('assay keys rotate', () => {
  it('issues a replacement and revokes the old key at once by default', async () => {
    const old = await issue('acme', 'live');
    const run = await keys('rotate', old.id);
    expect(run.stdout).toMatch(new RegExp(`^assay_live_[A-Za-z0-9_-]{32}\\n\\(id key_\\w+, org acme, env live; .*\\)\\n${old.id} is revoked\\n$`));
    expect((await keys('list')).stdout).toContain(`${old.id}  ${old.key.slice(0, 17)}…  org=acme  env=live  created ${NOW.toISOString()}  last used never  revoked ${NOW.toISOString()}`);
  });

  it('keeps the old key working for --grace', async () => {
    const old = await issue();
    const run = await keys('rotate', old.id, '--grace', '1h', '--json');
    const endsAt = new Date(NOW.getTime() + 3_600_000).toISOString();
    expect(JSON.parse(run.stdout)).toMatchObject({ org: 'acme', env: 'test', replaced_key_id: old.id, replaced_key_ends_at: endsAt });
    expect((await keys('list')).stdout).toContain(`active, expires ${endsAt}`);
  });

  it('exits NotFound for a key that is not active', async () => {
    const run = await keys('rotate', 'key_01JAAAAAAAAAAAAAAAAAAAAAAA');
    expect(run).toEqual({ stdout: '', stderr: 'assay: no active key with id key_01JAAAAAAAAAAAAAAAAAAAAAAA\n', exitCode: ExitCode.NotFound });
  });

  it('refuses a grace period that is not a duration', async () => {
    const old = await issue();
    const run = await keys('rotate', old.id, '--grace', 'soon');
    expect(run.exitCode).toBe(ExitCode.Usage);
    expect(run.stderr).toMatch(/--grace.*must be a duration/);
  });
});

describe('assay keys and an unreachable key store', () => {
  it('exits Unavailable, naming the store but not its URL', async () => {
    const run = await keysWithEnv({ DATABASE_URL: 'postgres://operator:s3cret@127.0.0.1:1/assay', DATA_DIR: dataDir }, 'list');
    expect(run.exitCode).toBe(ExitCode.Unavailable);
    expect(run.stderr).toMatch(/^assay: The key store \(PostgreSQL at DATABASE_URL\) could not be opened: /);
    expect(run.stderr).not.toContain('s3cret');
  });
});

describe('assay keys revoke', () => {
  it('revokes once and reports a second attempt as an error', async () => {
    const issued = await issue();
    expect((await keys('revoke', issued.id)).stdout).toBe(`revoked ${issued.id}\n`);
    expect(await keys('revoke', issued.id)).toMatchObject({ stderr: `assay: no active key with id ${issued.id}\n`, exitCode: ExitCode.NotFound });
  });
});

describe('assay keys audit', () => {
  it('lists every key operation with its actor, the OS user unless --actor says otherwise', async () => {
    const issued = await issue();
    await keys('revoke', issued.id, '--actor', 'alice@ops', '--reason', 'leaked');
    const run = await keys('audit');
    expect(run.stdout).toBe(
      [
        `${NOW.toISOString()}  ${defaultOperatorActor()}  issue  ${issued.id}  org=acme  env=test`,
        `${NOW.toISOString()}  alice@ops  revoke  ${issued.id}  org=acme  env=test  {"reason":"leaked"}`,
        '',
      ].join('\n'),
    );
    expect(run.stdout).not.toContain(issued.key.slice(11));
  });

  it('limits to the newest entries and to one key', async () => {
    const first = await issue();
    const second = await issue();
    expect((await keys('audit', '--limit', '1')).stdout).toContain(second.id);
    expect((await keys('audit', '--limit', '1')).stdout).not.toContain(first.id);
    expect((await keys('audit', '--key', first.id)).stdout.trim().split('\n')).toHaveLength(1);
  });
});

describe('grace periods', () => {
  it.each([
    ['0', 0],
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['1h', 3_600_000],
    ['2 days', 172_800_000],
  ])('reads %p', (text, ms) => {
    expect(parseGracePeriod(text)).toBe(ms);
  });

  it.each(['soon', '-1h', '31 days'])('refuses %p', (text) => {
    expect(() => parseGracePeriod(text)).toThrow();
  });
});
