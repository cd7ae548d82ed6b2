import * as http from 'node:http';
import { Command, CommanderError } from 'commander';
import { AssayClient } from '../../../../src/sdk';
import type { CustomerCommandDeps } from '../../../../src/cli/customer/command-deps';
import { registerCustomerCommands } from '../../../../src/cli/customer/commands';
import { ExitCode } from '../../../../src/cli/exit-codes';
import { task } from '../../../support/client-fake-fetch';
import { closeNow, listenOnLoopback } from '../../../support/loopback-server';

interface Received {
  method: string;
  idempotencyKey: string | undefined;
  body: string;
}

/**
 * A real HTTP server standing in for a frozen API: while `frozen`, it reads every request and
 * never answers; afterwards it answers as the service does once the stuck create went through.
 */
class FreezableApi {
  frozen = true;
  readonly received: Received[] = [];
  private readonly server = http.createServer((request, response) => {
    const received: Received = { method: request.method ?? '', idempotencyKey: request.headers['idempotency-key'] as string | undefined, body: '' };
    this.received.push(received);
    request.on('data', (chunk: Buffer) => (received.body += chunk.toString('utf8')));
    request.on('end', () => {
      if (this.frozen) return;
      response.writeHead(request.method === 'POST' ? 202 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(task(request.method === 'POST' ? 'queued' : 'succeeded')));
    });
  });

  async start(): Promise<string> {
    return `http://127.0.0.1:${await listenOnLoopback(this.server)}`;
  }

  stop(): Promise<void> {
    return closeNow(this.server);
  }
}

let api: FreezableApi;
let baseUrl: string;

beforeEach(async () => {
  api = new FreezableApi();
  baseUrl = await api.start();
});

afterEach(() => api.stop());

/**
 * `assay <args>` in-process over real HTTP; request timeout and backoff are shortened, and the create
 * asks for no wait (a held create may take the wait on top of the timeout), so four attempts take a second, not minutes.
 */
async function assay(args: string[]): Promise<{ exitCodes: number[]; stdout: string; stderr: string }> {
  const run = { exitCodes: [] as number[], stdout: '', stderr: '' };
  const deps: CustomerCommandDeps = {
    createClient: (options) => new AssayClient({ ...options, requestTimeoutMs: 300, retry: { baseDelayMs: 50, maxDelayMs: 100 }, poll: { waitSeconds: 0 } }),
    readStdin: () => Promise.reject(new Error('no stdin in this test')),
    stdinIsTTY: false,
    readFile: () => Promise.resolve('Notes long enough to summarize. They go on.'),
    stdout: { write: (text) => (run.stdout += text) },
    stderr: { write: (text) => (run.stderr += text), isTTY: false },
    exit: (code) => run.exitCodes.push(code),
    env: { ASSAY_API_KEY: 'assay_test_abc', ASSAY_BASE_URL: baseUrl },
  };
  const program = new Command('assay').exitOverride();
  registerCustomerCommands(program, deps);
  await program.parseAsync(args, { from: 'user' }).catch((error: unknown) => {
    if (!(error instanceof CommanderError)) throw error;
  });
  return run;
}

describe('assay summarize when the API takes the create but never answers', () => {
  test('exits OutcomeUnknown, names the Idempotency-Key it sent and a command that then finds the task', async () => {
    const run = await assay(['summarize', 'notes.txt']);

    // Four attempts were made; on a busy machine one may give up before its request reached the server.
    expect(api.received.length).toBeGreaterThanOrEqual(2);
    const key = api.received[0].idempotencyKey;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(api.received.every((request) => request.idempotencyKey === key)).toBe(true);
    expect(run.exitCodes).toEqual([ExitCode.OutcomeUnknown]);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('the task may or may not have been created');
    expect(run.stderr).toContain('got no complete response within 300 ms');
    expect(run.stderr).toContain(`Idempotency-Key ${key}`);
    const command = run.stderr.split('\n').find((line) => line.startsWith('  assay '));
    expect(command).toBe(`  assay summarize --idempotency-key ${key} notes.txt`);

    api.frozen = false;
    const rerun = await assay(command!.trim().split(' ').slice(1));

    expect(rerun.exitCodes).toEqual([ExitCode.Succeeded]);
    expect(rerun.stdout).toBe('A short summary.\n');
    const create = api.received.filter((request) => request.method === 'POST').at(-1);
    expect(create).toEqual({ method: 'POST', idempotencyKey: key, body: api.received[0].body });
  });
});
