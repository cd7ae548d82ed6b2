import type { Task } from '../../src/sdk';
import { eventually } from '../support/eventually';
import { bearer, http } from '../support/http';
import { REAL_MODEL, RealModelStack, newsText } from '../support/real-model-stack';
import { reportFiguresIfAsked } from '../support/report-figures';

// A model declared larger than its server serves it: SmolLM2-135M behind llama.cpp's
// OpenAI-compatible server with a 2,048-token context, declared at 8,192 tokens (as the OPENAI_*
// settings assume, and as an operator who does not know a hosted model's window may declare it).
// The server refuses the first plan's calls with its context-length error; the task plans again
// at the window the error states, and the worker plans the next task at that window from the start.
// Everything goes through the public API, with a proxy in front of the server counting its answers.

const SERVED_CONTEXT_TOKENS = 2048;
const DECLARED_CONTEXT_TOKENS = 8192;
const CONCURRENCY = 2;
// A 40 KB text is about a dozen calls of several seconds each on one core.
const TASK_TIMEOUT_MS = 600_000;

let stack: RealModelStack;

beforeAll(async () => {
  stack = await RealModelStack.start({ servedContextTokens: SERVED_CONTEXT_TOKENS, declaredContextTokens: DECLARED_CONTEXT_TOKENS, concurrency: CONCURRENCY });
}, 180_000);

afterAll(() => stack?.stop());

async function summarise(text: string): Promise<Task> {
  const { harness, key } = stack;
  const created = await http<Task>(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: { task_type: 'summarize', model: REAL_MODEL, input: { text } } });
  expect(created.status).toBe(202);
  return eventually(
    async () => (await http<Task>(`${harness.baseUrl}/v1/ai/tasks/${created.body.id}`, { headers: bearer(key) })).body,
    (task) => task.status === 'succeeded' || task.status === 'failed',
    `task ${created.body.id} to be final`,
    TASK_TIMEOUT_MS,
  );
}

describe('a model declared at 8,192 tokens, served at 2,048', () => {
  it('summarises a 40 KB text: the refused plan is made again at the window the server states, and the next task plans for it at once', async () => {
    const { proxy } = stack;
    const startedAt = Date.now();
    const text = newsText(40_000);
    expect(text.length).toBeGreaterThanOrEqual(39_000);
    const task = await summarise(text);
    expect(task).toMatchObject({ status: 'succeeded', model: REAL_MODEL });
    const firstCalls = proxy.calls.map((call) => call.status);
    const refused = firstCalls.filter((status) => status === 400).length;
    // The first plan's calls in flight were refused (at most the concurrency), then every call of the new plan answered.
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(refused).toBeLessThanOrEqual(CONCURRENCY);
    expect(firstCalls.slice(refused)).toEqual(Array(firstCalls.length - refused).fill(200));
    const steps = task.progress?.total_steps ?? 0;
    expect(task.progress).toEqual({ completed_steps: steps, total_steps: steps });
    expect(firstCalls.length - refused).toBe(steps);
    if (task.status === 'succeeded') expect(task.usage).toMatchObject({ provider_calls: steps });
    const firstSeconds = (Date.now() - startedAt) / 1000;

    // Declared at 8,192 tokens this text is one call, which the server would refuse: the worker learned 2,048.
    proxy.resetCounts();
    const next = await summarise(newsText(12_000));
    expect(next.status).toBe('succeeded');
    expect(proxy.calls.map((call) => call.status)).toEqual(Array(next.progress?.total_steps).fill(200));
    expect(next.progress?.total_steps).toBeGreaterThan(1);
    reportFiguresIfAsked('model declared at 8,192 tokens, served at 2,048', {
      textChars: text.length,
      refusedCalls: refused,
      steps,
      firstTaskSeconds: Math.round(firstSeconds),
      nextTaskSteps: next.progress?.total_steps,
      nextTaskSeconds: Math.round((Date.now() - startedAt) / 1000 - firstSeconds),
    });
  }, 2 * TASK_TIMEOUT_MS);
});
