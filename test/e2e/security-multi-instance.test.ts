import { Command } from 'commander';
import { ExitCode } from '../../src/cli/exit-codes';
import { registerKeysCommands } from '../../src/cli/operator/keys-commands';
import { generateEncryptionKeyEntry } from '../../src/common/crypto/encryption-keys';
import type { AssayHarness } from '../support/assay-harness';
import { startTwoApiInstances, type ApiInstances } from '../support/api-instances';
import { bearer, http } from '../support/http';
import { SUMMARIZE_TASK } from '../support/tasks';

const REVOCATION_DEADLINE_MS = 5000;

let deployment: ApiInstances;
let harness: AssayHarness;
let instances: string[];

beforeAll(async () => {
  // The production default cache lifetime, to show it keeps revocation within the 5 s promise;
  // encryption keys, without which the operator could not issue live keys.
  deployment = await startTwoApiInstances({ KEY_CACHE_TTL_MS: '2000', PAYLOAD_ENCRYPTION_KEYS: generateEncryptionKeyEntry('deployment') });
  harness = deployment.harness;
  instances = deployment.urls;
});

afterAll(async () => {
  await deployment?.stop();
});

/** Runs `assay keys <args>` as an operator would, against the same DATABASE_URL as the API. */
async function operator(...args: string[]): Promise<string> {
  let stdout = '';
  const program = new Command('assay').exitOverride();
  registerKeysCommands(program, {
    env: { DATABASE_URL: harness.config.values.DATABASE_URL, DATA_DIR: harness.dataDir, PAYLOAD_ENCRYPTION_KEYS: harness.config.values.PAYLOAD_ENCRYPTION_KEYS },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stdout += text) },
    exit: (code) => {
      if (code !== ExitCode.Succeeded) throw new Error(`assay keys ${args.join(' ')} exited ${code}: ${stdout}`);
    },
    clock: () => new Date(),
  });
  await program.parseAsync(['keys', ...args], { from: 'user' });
  return stdout;
}

async function statusesOf(url: (base: string) => string, key: string): Promise<number[]> {
  return Promise.all(instances.map(async (base) => (await http(url(base), { headers: bearer(key) })).status));
}

/** Polls until `check` holds; fails if it does not within `deadlineMs`. */
async function within(deadlineMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not true within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('two API instances sharing one PostgreSQL key store', () => {
  it('both refuse a key within 5 s of its revocation on the shared store', async () => {
    const issued = JSON.parse(await operator('issue', '--org', 'acme', '--env', 'test', '--json'));
    const created = await http(`${instances[0]}/v1/ai/tasks`, { method: 'POST', headers: bearer(issued.key), json: SUMMARIZE_TASK });
    const taskUrl = (base: string) => `${base}/v1/ai/tasks/${created.body.id}`;
    expect(await statusesOf(taskUrl, issued.key)).toEqual([200, 200]);

    expect(await operator('revoke', issued.id, '--actor', 'ops-oncall')).toBe(`revoked ${issued.id}\n`);
    await within(REVOCATION_DEADLINE_MS, async () => (await statusesOf(taskUrl, issued.key)).every((status) => status === 401));
  });

  it('both serve a rotated key\'s replacement at once, and the old key during its grace period', async () => {
    const old = JSON.parse(await operator('issue', '--org', 'acme', '--env', 'test', '--json'));
    const rotated = JSON.parse(await operator('rotate', old.id, '--grace', '1h', '--json'));
    const unknownTask = (base: string) => `${base}/v1/ai/tasks/task_01JAAAAAAAAAAAAAAAAAAAAAAA`;
    expect(await statusesOf(unknownTask, rotated.key)).toEqual([404, 404]);
    expect(await statusesOf(unknownTask, old.key)).toEqual([404, 404]);
  });

  it('record the key\'s last use in the shared store, and every operation in the audit log', async () => {
    const issued = JSON.parse(await operator('issue', '--org', 'acme', '--env', 'live', '--json'));
    await http(`${instances[1]}/v1/ai/tasks/task_01JAAAAAAAAAAAAAAAAAAAAAAA`, { headers: bearer(issued.key) });
    const listLine = async () => (await operator('list')).split('\n').find((line) => line.startsWith(issued.id)) ?? '';
    // The write is deliberately off the request path, so it lands shortly after the response.
    await within(REVOCATION_DEADLINE_MS, async () => /last used \d{4}-\d\d-\d\dT/.test(await listLine()));
    await operator('revoke', issued.id, '--actor', 'ops-oncall', '--reason', 'rotation drill');
    expect(await operator('audit', '--key', issued.id)).toMatch(new RegExp(`issue  ${issued.id}.*\\n.*ops-oncall  revoke  ${issued.id}  org=acme  env=live  \\{"reason":"rotation drill"\\}\\n$`));
  });
});
