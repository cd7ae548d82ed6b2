import { Command, CommanderError } from 'commander';
import { AssayClient } from '../../../../src/sdk';
import type { CustomerCommandDeps } from '../../../../src/cli/customer/command-deps';
import { commandGroup, registerCustomerCommands } from '../../../../src/cli/customer/commands';
import { ExitCode } from '../../../../src/cli/exit-codes';
import { type FakeAnswer, type RecordedRequest, apiError, assessment, fakeFetch, json, task } from '../../../support/client-fake-fetch';

interface Run {
  exitCodes: number[];
  stdout: string;
  stderr: string;
  requests: RecordedRequest[];
}

interface Setup {
  answer?: (request: RecordedRequest, index: number) => FakeAnswer;
  stdin?: string;
  stdinIsTTY?: boolean;
  stderrIsTTY?: boolean;
  files?: Record<string, string>;
  env?: Record<string, string>;
}

/** Runs `assay <args>` in-process against a fake service and returns what it printed and its exit code. */
async function assay(args: string[], setup: Setup = {}): Promise<Run> {
  const { fetch, requests } = fakeFetch(setup.answer ?? (() => json(200, task('succeeded'))));
  const run: Run = { exitCodes: [], stdout: '', stderr: '', requests };
  const deps: CustomerCommandDeps = {
    createClient: (options) => new AssayClient({ ...options, fetch }),
    readStdin: () => Promise.resolve(setup.stdin ?? ''),
    stdinIsTTY: setup.stdinIsTTY ?? false,
    readFile: (path) => (path in (setup.files ?? {}) ? Promise.resolve(setup.files![path]) : Promise.reject(Object.assign(new Error('no such file'), { code: 'ENOENT' }))),
    stdout: { write: (text) => (run.stdout += text) },
    stderr: { write: (text) => (run.stderr += text), isTTY: setup.stderrIsTTY ?? false },
    exit: (code) => run.exitCodes.push(code),
    env: setup.env ?? { ASSAY_API_KEY: 'assay_test_abc', ASSAY_BASE_URL: 'http://assay.test' },
  };
  const program = new Command('assay').exitOverride().configureOutput({ writeOut: (text) => (run.stdout += text), writeErr: (text) => (run.stderr += text) });
  registerCustomerCommands(program, deps);
  const parsing = program.parseAsync(args, { from: 'user' }).catch((error: unknown) => {
    if (!(error instanceof CommanderError)) throw error;
  });
  await jest.runAllTimersAsync();
  await parsing;
  return run;
}

/** Answers a create with a queued task and every poll from `statuses` in turn, the last one repeating. */
function taskLifecycle(...statuses: ('queued' | 'running' | 'succeeded' | 'failed')[]) {
  return (request: RecordedRequest, index: number): FakeAnswer =>
    request.method === 'POST' ? json(202, task('queued')) : json(200, task(statuses[Math.min(index - 1, statuses.length - 1)]));
}

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
});

afterEach(() => {
  jest.useRealTimers();
});

describe('assay summarize', () => {
  test('summarizes a file, prints the summary and exits 0', async () => {
    const run = await assay(['summarize', 'notes.txt'], { files: { 'notes.txt': 'Long notes.' }, answer: taskLifecycle('running', 'succeeded') });

    expect(run.exitCodes).toEqual([0]);
    expect(run.stdout).toBe('A short summary.\n');
    expect(run.requests[0]).toMatchObject({ method: 'POST', url: 'http://assay.test/v1/ai/tasks', body: { task_type: 'summarize', input: { text: 'Long notes.' } } });
  });

  test('holds its create as a poll would: a service that answers it final takes one request', async () => {
    const run = await assay(['summarize'], {
      stdin: 'Piped text.',
      answer: (request) => (request.headers.prefer === 'respond-async, wait=20' ? json(200, task('succeeded')) : json(202, task('queued'))),
    });

    expect(run.exitCodes).toEqual([0]);
    expect(run.stdout).toBe('A short summary.\n');
    expect(run.requests.map((request) => [request.method, request.headers.prefer])).toEqual([['POST', 'respond-async, wait=20']]);
  });

  test('a service that ignores the wait answers its create at once and is polled as before; --timeout bounds the wait asked for', async () => {
    const run = await assay(['summarize', '--timeout', '5'], { stdin: 'Piped text.', answer: taskLifecycle('running', 'succeeded') });

    expect(run.exitCodes).toEqual([0]);
    expect(run.stdout).toBe('A short summary.\n');
    expect(run.requests.map((request) => request.method)).toEqual(['POST', 'GET', 'GET']);
    expect(run.requests[0].headers.prefer).toBe('respond-async, wait=4');
  });

  test.each([[['summarize']], [['summarize', '-']]])('reads stdin for %j', async (args) => {
    const run = await assay(args, { stdin: 'Piped text.', answer: taskLifecycle('succeeded') });

    expect(run.exitCodes).toEqual([0]);
    expect(run.requests[0].body).toMatchObject({ input: { text: 'Piped text.' } });
  });

  test('--max-sentences is sent as input.max_sentences', async () => {
    const run = await assay(['summarize', '--max-sentences', '2'], { stdin: 'Piped text.', answer: taskLifecycle('succeeded') });

    expect(run.requests[0].body).toMatchObject({ input: { text: 'Piped text.', max_sentences: 2 } });
  });

  test('--json prints the whole task', async () => {
    const run = await assay(['summarize', '--json'], { stdin: 'Piped text.', answer: taskLifecycle('succeeded') });

    expect(JSON.parse(run.stdout)).toEqual(task('succeeded'));
  });

  test('a failed task exits TaskFailed and names its error code', async () => {
    const run = await assay(['summarize'], { stdin: 'Piped text.', answer: taskLifecycle('running', 'failed') });

    expect(run.exitCodes).toEqual([ExitCode.TaskFailed]);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('INPUT_REJECTED');
  });

  test('a task still running at the poll ceiling exits NotFinal', async () => {
    const run = await assay(['summarize'], { stdin: 'Piped text.', answer: taskLifecycle('running') });

    expect(run.exitCodes).toEqual([ExitCode.NotFinal]);
    expect(run.requests.filter((request) => request.method === 'GET')).toHaveLength(30);
  });

  test('--max-polls lowers the poll ceiling', async () => {
    const run = await assay(['summarize', '--max-polls', '3'], { stdin: 'Piped text.', answer: taskLifecycle('running') });

    expect(run.exitCodes).toEqual([ExitCode.NotFinal]);
    expect(run.requests.filter((request) => request.method === 'GET')).toHaveLength(3);
  });

  test('a refusal exits Refused and shows status, code and request id, and no recovery hint', async () => {
    const run = await assay(['summarize'], { stdin: 'Piped text.', answer: () => apiError(401, 'UNAUTHORIZED') });

    expect(run.exitCodes).toEqual([ExitCode.Refused]);
    expect(run.stderr).toContain('HTTP 401 UNAUTHORIZED');
    expect(run.stderr).toContain('req_401');
    expect(run.stderr).not.toContain('Idempotency-Key');
  });

  test('sends the create under --idempotency-key', async () => {
    const run = await assay(['summarize', '--idempotency-key', 'my-key-1'], { stdin: 'Piped text.', answer: taskLifecycle('succeeded') });

    expect(run.exitCodes).toEqual([ExitCode.Succeeded]);
    expect(run.requests[0].headers['idempotency-key']).toBe('my-key-1');
  });

  test('a create still failing with 5xx after its retries exits OutcomeUnknown, naming the key and the command that finds the task', async () => {
    const run = await assay(['summarize', '--max-sentences', '2', 'my notes.txt'], {
      files: { 'my notes.txt': 'Long notes.' },
      answer: () => apiError(500, 'INTERNAL'),
    });

    const key = run.requests[0].headers['idempotency-key'];
    expect(run.requests.map((request) => request.headers['idempotency-key'])).toEqual([key, key, key, key]);
    expect(run.exitCodes).toEqual([ExitCode.OutcomeUnknown]);
    expect(run.stderr).toContain('the task may or may not have been created');
    expect(run.stderr).toContain('HTTP 500 INTERNAL');
    expect(run.stderr).toContain(`Idempotency-Key ${key}`);
    expect(run.stderr).toContain(`  assay summarize --idempotency-key ${key} --max-sentences 2 'my notes.txt'\n`);
  });

  test('the recovery command for text from stdin says to pipe the same text again', async () => {
    const run = await assay(['summarize', '--base-url', 'http://other.test'], { stdin: 'Piped text.', answer: () => apiError(503, 'SERVICE_UNAVAILABLE') });

    const key = run.requests[0].headers['idempotency-key'];
    expect(run.exitCodes).toEqual([ExitCode.OutcomeUnknown]);
    expect(run.stderr).toContain(`  assay summarize --idempotency-key ${key} --base-url http://other.test -  (with the same text on stdin)\n`);
  });

  test('an invalid --idempotency-key is a usage error, with nothing sent', async () => {
    const run = await assay(['summarize', '--idempotency-key', 'has\nnewline'], { stdin: 'Piped text.' });

    expect(run.exitCodes).toEqual([ExitCode.Usage]);
    expect(run.requests).toHaveLength(0);
  });

  test('no file and a terminal on stdin is a usage error (2), with nothing sent', async () => {
    const run = await assay(['summarize'], { stdinIsTTY: true });

    expect(run.exitCodes).toEqual([2]);
    expect(run.requests).toHaveLength(0);
  });

  test('empty input is a usage error (2)', async () => {
    const run = await assay(['summarize'], { stdin: '  \n' });

    expect(run.exitCodes).toEqual([2]);
  });

  test('a missing file is a usage error (2)', async () => {
    const run = await assay(['summarize', 'missing.txt']);

    expect(run.exitCodes).toEqual([2]);
    expect(run.stderr).toContain('ENOENT');
  });

  test('no API key is a usage error (2)', async () => {
    const run = await assay(['summarize'], { stdin: 'text', env: { ASSAY_API_KEY: '', ASSAY_BASE_URL: 'http://assay.test' } });

    expect(run.exitCodes).toEqual([2]);
    expect(run.stderr).toContain('ASSAY_API_KEY');
  });

  test('--base-url wins over ASSAY_BASE_URL', async () => {
    const run = await assay(['summarize', '--base-url', 'http://other.test:8080'], { stdin: 'text', answer: taskLifecycle('succeeded') });

    expect(run.requests[0].url).toBe('http://other.test:8080/v1/ai/tasks');
  });
});

describe('assay summarize --batch', () => {
  const ITEMS = [JSON.stringify({ key: 'doc-a', text: 'First text.' }), '', JSON.stringify({ text: 'Third line.', max_sentences: 2 })].join('\n');

  function batchResource(status: 'in_progress' | 'ended', succeeded: number, failed: number): Record<string, unknown> {
    const at = '2025-01-01T00:00:00Z';
    return { id: 'batch_01', task_type: 'summarize', model: 'extractive', priority: 'low', status, counts: { total: 2, admitted: 2, succeeded, failed }, created_at: at, updated_at: at, ended_at: status === 'ended' ? at : null, canceled_at: null, expires_at: null };
  }

  function itemTask(key: string, status: 'succeeded' | 'failed'): Record<string, unknown> {
    return { ...task(status, `task_${key}`), batch_id: 'batch_01', item_key: key };
  }

  /** Answers the create with the batch in progress, its polls with `polls` in turn (the last repeating), and its task list with `tasks` in pages of one. */
  function batchService(polls: Record<string, unknown>[], tasks: Record<string, unknown>[]) {
    let poll = 0;
    return (request: RecordedRequest): FakeAnswer => {
      if (request.method === 'POST') return json(202, batchResource('in_progress', 0, 0));
      const url = new URL(request.url);
      if (url.pathname.endsWith('/tasks')) {
        const index = Number(url.searchParams.get('cursor') ?? 0);
        return json(200, { data: [tasks[index]], has_more: index + 1 < tasks.length, next_cursor: index + 1 < tasks.length ? String(index + 1) : null });
      }
      return json(200, polls[Math.min(poll++, polls.length - 1)]);
    };
  }

  const succeedsBoth = () => batchService([batchResource('in_progress', 1, 0), batchResource('ended', 2, 0)], [itemTask('3', 'succeeded'), itemTask('doc-a', 'succeeded')]);

  test('sends the file as one batch, then prints one JSON line per item in the file\'s order and exits 0', async () => {
    const run = await assay(['summarize', '--batch', 'items.jsonl', '--model', 'extractive', '--max-sentences', '3'], { files: { 'items.jsonl': ITEMS }, answer: succeedsBoth() });

    expect(run.exitCodes).toEqual([ExitCode.Succeeded]);
    expect(run.requests[0]).toMatchObject({
      method: 'POST',
      url: 'http://assay.test/v1/ai/batches',
      body: {
        task_type: 'summarize',
        model: 'extractive',
        items: [
          { key: 'doc-a', input: { text: 'First text.', max_sentences: 3 } },
          { key: '3', input: { text: 'Third line.', max_sentences: 2 } },
        ],
      },
    });
    expect(run.requests.filter((request) => request.url.includes('/tasks')).map((request) => request.url)).toEqual([
      'http://assay.test/v1/ai/batches/batch_01/tasks?limit=100',
      'http://assay.test/v1/ai/batches/batch_01/tasks?limit=100&cursor=1',
    ]);
    expect(run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line))).toEqual([
      { key: 'doc-a', task_id: 'task_doc-a', status: 'succeeded', summary: 'A short summary.' },
      { key: '3', task_id: 'task_3', status: 'succeeded', summary: 'A short summary.' },
    ]);
  });

  test('names the batch on stderr first, with the command that waits for it again', async () => {
    const run = await assay(['summarize', '--batch', 'items.jsonl', '--idempotency-key', 'batch-key-1'], { files: { 'items.jsonl': ITEMS }, answer: succeedsBoth() });

    expect(run.requests[0].headers['idempotency-key']).toBe('batch-key-1');
    expect(run.stderr).toBe(
      'Batch batch_01 (2 items). Ctrl-C stops the wait, not the batch; to wait for it again, run:\n  assay summarize --batch items.jsonl --idempotency-key batch-key-1\n',
    );
  });

  test('a failed item is printed with its error and the command exits TaskFailed', async () => {
    const answer = batchService([batchResource('ended', 1, 1)], [itemTask('doc-a', 'failed'), itemTask('3', 'succeeded')]);
    const run = await assay(['summarize', '--batch', 'items.jsonl'], { files: { 'items.jsonl': ITEMS }, answer });

    expect(run.exitCodes).toEqual([ExitCode.TaskFailed]);
    expect(JSON.parse(run.stdout.split('\n')[0])).toEqual({
      key: 'doc-a',
      task_id: 'task_doc-a',
      status: 'failed',
      error: { code: 'INPUT_REJECTED', message: 'The provider rejected the input' },
    });
    expect(run.stderr).toContain('assay: Batch batch_01: 1 of 2 items succeeded, 1 failed; each task is on stdout');
  });

  test('shows a progress bar on stderr when it is a terminal', async () => {
    const run = await assay(['summarize', '--batch', 'items.jsonl'], { files: { 'items.jsonl': ITEMS }, stderrIsTTY: true, answer: succeedsBoth() });

    expect(run.stderr).toMatch(/Batch batch_01 \(\[#####-----\] 1\/2 final: 1 succeeded, 0 failed\) \d+\.\ds/);
    expect(run.exitCodes).toEqual([ExitCode.Succeeded]);
  });

  test('--timeout lowers the poll ceiling; a batch still running then exits NotFinal', async () => {
    const answer = batchService([batchResource('in_progress', 0, 0)], []);
    const run = await assay(['summarize', '--batch', 'items.jsonl', '--timeout', '30'], { files: { 'items.jsonl': ITEMS }, answer });

    expect(run.exitCodes).toEqual([ExitCode.NotFinal]);
    expect(run.requests.filter((request) => request.method === 'GET').length).toBeLessThanOrEqual(14);
    expect(run.stdout).toBe('');
  });

  test('a bad line is a usage error naming it, with nothing sent', async () => {
    const run = await assay(['summarize', '--batch', 'items.jsonl'], { files: { 'items.jsonl': `${ITEMS}\n{"text": 7}` } });

    expect(run.exitCodes).toEqual([ExitCode.Usage]);
    expect(run.stderr).toContain('items.jsonl line 4: "text" must be a string');
    expect(run.requests).toHaveLength(0);
  });

  test.each([
    ['a text file too', ['summarize', '--batch', 'items.jsonl', 'notes.txt'], '--batch reads the texts from items.jsonl; name no other file'],
    ['--json', ['summarize', '--batch', 'items.jsonl', '--json'], "cannot be used with option '--json'"],
  ])('with %s is a usage error, with nothing sent', async (_case, args, message) => {
    const run = await assay(args, { files: { 'items.jsonl': ITEMS, 'notes.txt': 'Notes.' } });

    expect(run.exitCodes).toEqual([ExitCode.Usage]);
    expect(run.stderr).toContain(message);
    expect(run.requests).toHaveLength(0);
  });
});

describe('progress spinner', () => {
  test('draws status and elapsed time on stderr when it is a terminal, then clears its line', async () => {
    const run = await assay(['summarize'], { stdin: 'text', stderrIsTTY: true, answer: taskLifecycle('running', 'succeeded') });

    expect(run.stderr).toMatch(/Summarizing \(running\) \d+\.\ds/);
    expect(run.stderr.endsWith('\r\x1b[2K')).toBe(true);
    expect(run.stdout).toBe('A short summary.\n');
  });

  test('shows how far a task that runs in steps has got', async () => {
    const stepping = (request: RecordedRequest, index: number): FakeAnswer =>
      request.method === 'POST'
        ? json(202, task('queued'))
        : json(200, index < 3 ? { ...task('running'), progress: { completed_steps: index, total_steps: 4 } } : task('succeeded'));
    const run = await assay(['summarize'], { stdin: 'text', stderrIsTTY: true, answer: stepping });

    expect(run.stderr).toMatch(/Summarizing \(running, step 2 of 4\) \d+\.\ds/);
    expect(run.stdout).toBe('A short summary.\n');
  });

  test('stays silent when stderr is not a terminal', async () => {
    const run = await assay(['summarize'], { stdin: 'text', answer: taskLifecycle('running', 'succeeded') });

    expect(run.stderr).toBe('');
  });
});

describe('assay tasks get', () => {
  test('prints the task as it is now and exits 0', async () => {
    const run = await assay(['tasks', 'get', 'task_01'], { answer: () => json(200, task('running')) });

    expect(run.exitCodes).toEqual([0]);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: 'task_01', status: 'running' });
    expect(run.requests).toHaveLength(1);
  });

  test('--wait polls until final', async () => {
    const statuses = ['queued', 'running', 'succeeded'] as const;
    const run = await assay(['tasks', 'get', 'task_01', '--wait'], { answer: (_request, index) => json(200, task(statuses[index])) });

    expect(run.exitCodes).toEqual([0]);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'succeeded' });
    expect(run.requests).toHaveLength(3);
  });

  test('a failed task is printed and exits TaskFailed', async () => {
    const run = await assay(['tasks', 'get', 'task_01', '--wait'], { answer: () => json(200, task('failed')) });

    expect(run.exitCodes).toEqual([ExitCode.TaskFailed]);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'failed', error: { code: 'INPUT_REJECTED' } });
  });

  test('an unknown task exits NotFound', async () => {
    const run = await assay(['tasks', 'get', 'task_nope'], { answer: () => apiError(404, 'NOT_FOUND') });

    expect(run.exitCodes).toEqual([ExitCode.NotFound]);
    expect(run.stderr).toContain('NOT_FOUND');
  });

  test('a missing id is a usage error (2)', async () => {
    const run = await assay(['tasks', 'get']);

    expect(run.exitCodes).toEqual([2]);
    expect(run.requests).toHaveLength(0);
  });

  test('a malformed option value is a usage error (2)', async () => {
    const run = await assay(['tasks', 'get', 'task_01', '--wait', '--max-polls', 'many']);

    expect(run.exitCodes).toEqual([2]);
  });
});

describe('assay assessments', () => {
  const architecture = { name: 'shop', context: 'web shop', components: [{ id: 'lb', kind: 'load_balancer', zone: 'a' }], links: [] };

  test('submit posts the file and prints the assessment', async () => {
    const run = await assay(['assessments', 'submit', 'shop.json'], {
      files: { 'shop.json': JSON.stringify(architecture) },
      answer: () => json(202, assessment('submitted')),
    });

    expect(run.exitCodes).toEqual([0]);
    expect(run.requests[0]).toMatchObject({ method: 'POST', url: 'http://assay.test/v1/network-assessments', body: architecture });
    expect(JSON.parse(run.stdout)).toMatchObject({ assessment_id: 'asmt_01', status: 'submitted' });
  });

  test('submit left unconfirmed exits OutcomeUnknown with the command that finds the assessment', async () => {
    const run = await assay(['assessments', 'submit', 'shop.json'], {
      files: { 'shop.json': JSON.stringify(architecture) },
      answer: () => apiError(502, 'UNEXPECTED_RESPONSE'),
    });

    const key = run.requests[0].headers['idempotency-key'];
    expect(run.exitCodes).toEqual([ExitCode.OutcomeUnknown]);
    expect(run.stderr).toContain('the assessment may or may not have been created');
    expect(run.stderr).toContain(`  assay assessments submit --idempotency-key ${key} shop.json\n`);
  });

  test('get of an assessment while the service is unavailable exits Unavailable', async () => {
    const run = await assay(['assessments', 'get', 'asmt_01'], { answer: () => apiError(503, 'SERVICE_UNAVAILABLE') });

    expect(run.exitCodes).toEqual([ExitCode.Unavailable]);
    expect(run.stderr).toContain('HTTP 503 SERVICE_UNAVAILABLE');
  });

  test('submit of a file that is not JSON is a usage error (2)', async () => {
    const run = await assay(['assessments', 'submit', 'shop.json'], { files: { 'shop.json': '{ nope' } });

    expect(run.exitCodes).toEqual([2]);
    expect(run.requests).toHaveLength(0);
  });

  test('get --wait polls until completed', async () => {
    const statuses = ['submitted', 'under_review', 'completed'] as const;
    const run = await assay(['assessments', 'get', 'asmt_01', '--wait'], { answer: (_request, index) => json(200, assessment(statuses[index])) });

    expect(run.exitCodes).toEqual([0]);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'completed', review: { verdict: 'approved' } });
  });

  test('get --wait exits NotFinal when the review does not finish in time', async () => {
    const run = await assay(['assessments', 'get', 'asmt_01', '--wait', '--timeout', '10'], { answer: () => json(200, assessment('under_review')) });

    expect(run.exitCodes).toEqual([ExitCode.NotFinal]);
    expect(run.stdout).toBe('');
  });
});

describe('help', () => {
  test("a command's help lists the exit codes it can end with", async () => {
    const run = await assay(['assessments', 'submit', '--help']);

    expect(run.exitCodes).toEqual([ExitCode.Succeeded]);
    expect(run.stdout).toContain('--idempotency-key <key>');
    expect(run.stdout).toMatch(/Exit codes:\n {2}0 +succeeded\n {2}2 +usage: .*\n {2}4 +refused: .*\n {2}5 +unavailable: .*\n {2}7 +outcome unknown: .*\n {2}70 +internal: /);
  });
});

describe('command groups', () => {
  test('registering adds to an existing assessments group instead of clashing with it', () => {
    const program = new Command('assay');
    program.command('assessments').command('pending');

    registerCustomerCommands(program, {} as CustomerCommandDeps);

    const assessments = commandGroup(program, 'assessments', 'unused');
    expect(program.commands.filter((command) => command.name() === 'assessments')).toHaveLength(1);
    expect(assessments.commands.map((command) => command.name()).sort()).toEqual(['get', 'pending', 'submit']);
  });
});
