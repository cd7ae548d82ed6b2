import type { AssayHarness } from '../support/assay-harness';
import { startTwoApiInstances, type ApiInstances } from '../support/api-instances';
import { bearer, http } from '../support/http';

const TASK = { task_type: 'summarize', input: { text: 'The council approved the plan. It opens in spring.' } };

let deployment: ApiInstances;
let harness: AssayHarness;
let instances: string[];

beforeAll(async () => {
  // Bursts of 3 per key and 5 per organisation that take a minute per token to refill: nothing refills during the test.
  deployment = await startTwoApiInstances({
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
    const create = (instance: string) => http(`${instance}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: TASK });
    const answers = [];
    for (const instance of [0, 1, 0, 1, 0, 1]) answers.push(await create(instances[instance]));

    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 429, 429, 429]);
    expect(answers.slice(0, 3).map((answer) => answer.headers.get('ratelimit'))).toEqual([
      '"creates";r=2;t=60, "organisation-creates";r=4;t=60',
      '"creates";r=1;t=60, "organisation-creates";r=3;t=60',
      '"creates";r=0;t=60, "organisation-creates";r=2;t=60',
    ]);
    for (const refused of answers.slice(3)) {
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(refused.headers.get('retry-after')).toBe('60');
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
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await http(`${instances[i % 2]}/v1/ai/tasks`, { method: 'POST', headers: bearer(keys[i % 2]), json: TASK }));

    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 202, 202, 429]);
    const refused = answers[5];
    expect(refused.body.error).toEqual({ code: 'RATE_LIMITED', message: expect.stringMatching(/organisation in this environment/), request_id: expect.any(String) });
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('ratelimit')).toBe('"creates";r=0;t=60, "organisation-creates";r=0;t=60');
  });
});
