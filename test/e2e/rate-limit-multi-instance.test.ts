import type { AssayHarness } from '../support/assay-harness';
import { startTwoApiInstances, type ApiInstances } from '../support/api-instances';
import { bearer, http, type HttpResult } from '../support/http';

const TASK = { task_type: 'summarize', input: { text: 'The council approved the plan. It opens in spring.' } };

let deployment: ApiInstances;
let harness: AssayHarness;
let instances: string[];

/**
 * Buckets refill continuously at a token a minute, so a whole token never comes back during a test,
 * but each second that passes takes a second off the wait for the next one. The waits a test reads
 * are therefore 60 s less the seconds its requests took, at most.
 */
const SECONDS_PER_TOKEN = 60;

interface RateLimitItem {
  name: string;
  remaining: number;
  secondsUntilNext: number;
}

function rateLimitItems(answer: HttpResult): RateLimitItem[] {
  return (answer.headers.get('ratelimit') ?? '').split(', ').map((item) => {
    const [, name, remaining, secondsUntilNext] = /^"([^"]+)";r=(\d+);t=(\d+)$/.exec(item) ?? [];
    return { name, remaining: Number(remaining), secondsUntilNext: Number(secondsUntilNext) };
  });
}

/** Sends the requests one after another and says how many seconds all of them took. */
async function timed(requests: (() => Promise<HttpResult>)[]): Promise<{ answers: HttpResult[]; seconds: number }> {
  const started = performance.now();
  const answers = [];
  for (const request of requests) answers.push(await request());
  return { answers, seconds: (performance.now() - started) / 1000 };
}

function expectWaitWithin(secondsUntilNext: number, elapsedSeconds: number): void {
  expect(secondsUntilNext).toBeLessThanOrEqual(SECONDS_PER_TOKEN);
  expect(secondsUntilNext).toBeGreaterThanOrEqual(Math.floor(SECONDS_PER_TOKEN - elapsedSeconds));
}

beforeAll(async () => {
  // Bursts of 3 per key and 5 per organisation, refilled at a token a minute. No worker drains the
  // queue here, so admission (its own test: admission.test.ts) is off, lest a slow run meet it first;
  // so is lending to an organisation alone (spare-capacity.test.ts), which would lift the limits here.
  deployment = await startTwoApiInstances({
    ADMISSION_MAX_QUEUE_SECONDS: '0',
    ADMISSION_ALONE_IN_FLIGHT: '0',
    RATE_LIMIT_CREATES_BURST: '3',
    RATE_LIMIT_CREATES_PER_MINUTE: '1',
    RATE_LIMIT_ORGANISATION_CREATES_BURST: '5',
    RATE_LIMIT_ORGANISATION_CREATES_PER_MINUTE: '1',
  });
  harness = deployment.harness;
  instances = deployment.urls;
});

afterAll(async () => {
  await deployment?.stop();
});

describe('two API instances sharing one PostgreSQL', () => {
  it('allow a key its create limit once between them, not once each', async () => {
    const { key } = await harness.issueKey('acme', 'test');
    const create = (instance: string) => () => http(`${instance}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: TASK });
    const { answers, seconds } = await timed([0, 1, 0, 1, 0, 1].map((instance) => create(instances[instance])));

    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 429, 429, 429]);
    expect(answers.slice(0, 3).map((answer) => rateLimitItems(answer).map(({ name, remaining }) => [name, remaining]))).toEqual([
      [['creates', 2], ['organisation-creates', 4]],
      [['creates', 1], ['organisation-creates', 3]],
      [['creates', 0], ['organisation-creates', 2]],
    ]);
    for (const answer of answers.slice(0, 3)) for (const item of rateLimitItems(answer)) expectWaitWithin(item.secondsUntilNext, seconds);
    for (const refused of answers.slice(3)) {
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(rateLimitItems(refused)).toEqual([{ name: 'creates', remaining: 0, secondsUntilNext: retryAfter }]);
      expectWaitWithin(retryAfter, seconds);
      expect(refused.headers.get('ratelimit-policy')).toBe('"creates";q=3;w=180');
    }
  });

  it('keep other keys\' limits apart', async () => {
    const { key } = await harness.issueKey('globex', 'test');
    const answer = await http(`${instances[1]}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: TASK });
    expect(answer.status).toBe(202);
    expect(answer.headers.get('ratelimit')).toBe('"creates";r=2;t=60, "organisation-creates";r=4;t=60');
  });

  it('allow an organisation its limit once between them, over all its keys', async () => {
    const keys = [(await harness.issueKey('initech', 'test')).key, (await harness.issueKey('initech', 'test')).key];
    const { answers, seconds } = await timed(
      Array.from({ length: 6 }, (_, i) => () => http(`${instances[i % 2]}/v1/ai/tasks`, { method: 'POST', headers: bearer(keys[i % 2]), json: TASK })),
    );

    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 202, 202, 429]);
    const refused = answers[5];
    expect(refused.body.error).toEqual({ code: 'RATE_LIMITED', message: expect.stringMatching(/organisation in this environment/), request_id: expect.any(String) });
    const items = rateLimitItems(refused);
    expect(items.map(({ name, remaining }) => [name, remaining])).toEqual([
      ['creates', 0],
      ['organisation-creates', 0],
    ]);
    expect(items[1].secondsUntilNext).toBe(Number(refused.headers.get('retry-after')));
    for (const item of items) expectWaitWithin(item.secondsUntilNext, seconds);
  });
});
