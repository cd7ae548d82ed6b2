import type { Task, TaskProgress } from '../../src/sdk';
import { AssayHarness } from '../support/assay-harness';
import { eventually } from '../support/eventually';
import { bearer, http } from '../support/http';
import { ScriptedProvider } from '../support/scripted-provider';

// A text of the API's size limit on a remote model whose context is far smaller: accepted, and
// summarised in steps; one byte more is 413 before anything starts.

const LIMIT = 512 * 1024;
const provider = new ScriptedProvider('A part summarised.');
let harness: AssayHarness;
let key: string;

beforeAll(async () => {
  const url = await provider.listen();
  harness = await AssayHarness.start({ env: { ASSAY_MODELS: JSON.stringify([{ name: 'small', base_url: url, context_tokens: 8192, concurrency: 8 }]) } });
  key = (await harness.issueKey('acme', 'test')).key;
});

afterAll(async () => {
  await harness?.stop();
  await provider.close();
});

/** Exactly `bytes` bytes of ASCII prose. */
function textOf(bytes: number): string {
  const sentence = 'The council met again on Tuesday and spoke at length about the budget for next year. ';
  return sentence.repeat(Math.ceil(bytes / sentence.length)).slice(0, bytes);
}

describe('a text of the size limit on a small model', () => {
  it('is accepted and completes in steps, each reaching the provider once', async () => {
    const created = await http<Task>(`${harness.baseUrl}/v1/ai/tasks`, {
      method: 'POST',
      headers: bearer(key),
      json: { task_type: 'summarize', model: 'small', input: { text: textOf(LIMIT) } },
    });
    expect(created.status).toBe(202);
    const task = await eventually(
      async () => (await http<Task & { progress?: TaskProgress }>(`${harness.baseUrl}/v1/ai/tasks/${created.body.id}`, { headers: bearer(key) })).body,
      (read) => read.status === 'succeeded' || read.status === 'failed',
      'the task to be final',
      120_000,
    );
    expect(task).toMatchObject({ status: 'succeeded', output: { summary: 'A part summarised.' } });
    const total = task.progress?.total_steps ?? 0;
    expect(total).toBeGreaterThan(20);
    expect(task.progress).toEqual({ completed_steps: total, total_steps: total });
    expect(provider.requests).toBe(total);
  }, 150_000);

  it('answers one byte more with 413 PAYLOAD_TOO_LARGE', async () => {
    const refused = await http(`${harness.baseUrl}/v1/ai/tasks`, {
      method: 'POST',
      headers: bearer(key),
      json: { task_type: 'summarize', model: 'small', input: { text: textOf(LIMIT + 1) } },
    });
    expect(refused.status).toBe(413);
    expect(refused.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
