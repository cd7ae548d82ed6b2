import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import { Command } from 'commander';
import { AssayClient, type AssayClientOptions, TaskFailedError } from '../../src/sdk';
import type { CustomerCommandDeps } from '../../src/cli/customer/command-deps';
import { registerCustomerCommands } from '../../src/cli/customer/commands';
import { ExitCode } from '../../src/cli/exit-codes';
import { AssayHarness } from '../support/assay-harness';
import { closeNow, listenOnLoopback } from '../support/loopback-server';
import { ScriptedProvider } from '../support/scripted-provider';
import { remoteProviderEnv } from '../support/remote-provider-env';

let harness: AssayHarness;
let provider: ScriptedProvider;
let client: AssayClient;
let apiKey: string;

beforeAll(async () => {
  provider = new ScriptedProvider('Summary written by the provider.');
  harness = await AssayHarness.start({ env: remoteProviderEnv(await provider.listen()) });
  apiKey = (await harness.issueKey('acme', 'test')).key;
  client = new AssayClient({ baseUrl: harness.baseUrl, apiKey });
});

afterAll(async () => {
  await harness?.stop();
  await provider?.close();
});

describe('AssayClient against the real service', () => {
  it('summarize() creates a task and polls it to succeeded', async () => {
    provider.answer(200);
    const task = await client.summarize('A text long enough to be worth a summary. It has two sentences.');
    expect(task.status).toBe('succeeded');
    expect(task.output.summary).toBe('Summary written by the provider.');
  });

  it('createTask() with a caller-chosen Idempotency-Key returns the same task twice', async () => {
    provider.answer(200);
    const idempotencyKey = randomUUID();
    const request = { task_type: 'summarize' as const, input: { text: 'Same request, sent twice.' } };
    const first = await client.createTask(request, { idempotencyKey });
    const second = await client.createTask(request, { idempotencyKey });
    expect(second.id).toBe(first.id);
    // Finishing it here keeps its provider call from taking the next test's scripted answer.
    await expect(client.waitForTask(first)).resolves.toMatchObject({ id: first.id, status: 'succeeded' });
  });

  it('waitForTask() rejects with TaskFailedError carrying the failure code', async () => {
    provider.answer(400);
    const created = await client.createTask({ task_type: 'summarize', input: { text: 'A text the provider refuses.' } });
    await expect(client.waitForTask(created)).rejects.toEqual(expect.any(TaskFailedError));
    await expect(client.getTask(created.id)).resolves.toMatchObject({ status: 'failed', error: { code: 'INPUT_REJECTED' } });
  });
});

describe('assay CLI against the real service', () => {
  async function assay(
    args: string[],
    stdin = '',
    { baseUrl = harness.baseUrl, client: clientOptions = {} }: { baseUrl?: string; client?: AssayClientOptions } = {},
  ): Promise<{ exitCodes: number[]; stdout: string; stderr: string }> {
    const run = { exitCodes: [] as number[], stdout: '', stderr: '' };
    const deps: CustomerCommandDeps = {
      createClient: (options) => new AssayClient({ ...options, ...clientOptions }),
      readStdin: () => Promise.resolve(stdin),
      stdinIsTTY: false,
      readFile: () => Promise.reject(new Error('no files in this test')),
      stdout: { write: (text) => (run.stdout += text) },
      stderr: { write: (text) => (run.stderr += text), isTTY: false },
      exit: (code) => run.exitCodes.push(code),
      env: { ASSAY_API_KEY: apiKey, ASSAY_BASE_URL: baseUrl },
    };
    const program = new Command('assay').exitOverride();
    registerCustomerCommands(program, deps);
    await program.parseAsync(args, { from: 'user' });
    return run;
  }

  it('`assay summarize -` reads stdin and prints the summary', async () => {
    provider.answer(200);
    const run = await assay(['summarize', '-'], 'Some long text from a pipe. It goes on for a while.');
    expect(run.stdout.trim()).toBe('Summary written by the provider.');
    expect(run.exitCodes.every((code) => code === 0)).toBe(true);
  });

  it('`assay tasks get <id> --wait` prints the final task as JSON', async () => {
    provider.answer(200);
    const created = await client.createTask({ task_type: 'summarize', input: { text: 'Text for the CLI to wait on.' } });
    const run = await assay(['tasks', 'get', created.id, '--wait']);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: created.id, status: 'succeeded' });
  });

  it('`assay summarize` exits TaskFailed when the task fails', async () => {
    provider.answer(400);
    const run = await assay(['summarize', '-'], 'A text the provider refuses.');
    expect(run.exitCodes).toContain(ExitCode.TaskFailed);
    expect(run.stderr).toContain('INPUT_REJECTED');
  });

  it('`assay tasks get` exits NotFound for an unknown task', async () => {
    const run = await assay(['tasks', 'get', 'task_01JAAAAAAAAAAAAAAAAAAAAAAA']);
    expect(run.exitCodes).toEqual([ExitCode.NotFound]);
    expect(run.stderr).toContain('NOT_FOUND');
  });

  it('a create the service carried out but whose answer never came back is found with the command the CLI prints', async () => {
    provider.answer(200);
    const text = 'Text whose create is answered too late. The client has given up by then.';
    const forwarded: Promise<string>[] = [];
    // Forwards each request to the service and keeps the answer from the CLI, as a frozen proxy would.
    const blackHole = http.createServer((request, _response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const answer = fetch(new URL(request.url ?? '/', harness.baseUrl), {
          method: request.method,
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': String(request.headers['idempotency-key']) },
          body,
        });
        forwarded.push(answer.then(async (response) => ((await response.json()) as { id: string }).id));
      });
    });
    const blackHoleUrl = `http://127.0.0.1:${await listenOnLoopback(blackHole)}`;
    try {
      // --timeout 3 holds each attempt's create 2 s (a second short of it), so four attempts fit the test's minute.
      const lost = await assay(['summarize', '--timeout', '3', '-'], text, {
        baseUrl: blackHoleUrl,
        client: { requestTimeoutMs: 1_000, retry: { baseDelayMs: 50, maxDelayMs: 100 } },
      });

      expect(lost.exitCodes).toEqual([ExitCode.OutcomeUnknown]);
      const command = lost.stderr.split('\n').find((line) => line.startsWith('  assay summarize --idempotency-key '));
      expect(command).toMatch(/^ {2}assay summarize --idempotency-key [0-9a-f-]{36} - {2}\(with the same text on stdin\)$/);
      const created = await Promise.all(forwarded);
      expect(created.length).toBeGreaterThan(0);
      expect(new Set(created).size).toBe(1);

      const found = await assay([...command!.trim().split('  (')[0].split(' ').slice(1), '--json'], text);

      expect(found.exitCodes).toEqual([ExitCode.Succeeded]);
      expect(JSON.parse(found.stdout)).toMatchObject({ id: created[0], status: 'succeeded' });
    } finally {
      await closeNow(blackHole);
    }
  });
});
