import { UNLIMITED_CREATES } from '../../bench/unlimited-creates';
import { AssayHarness } from '../support/assay-harness';
import { FLOOD_ORGANIZATION, QUIET_ORGANIZATION } from '../support/dispatch-order';
import { eventually } from '../support/eventually';
import { bearer, http } from '../support/http';

// Admission reads Temporal's own backlog age of the shared queue: with no worker running, the
// first task created waits, and a second later the queue is past this bound.
const MAX_QUEUE_SECONDS = 1;

let harness: AssayHarness;

beforeAll(async () => {
  harness = await AssayHarness.start({ worker: 'later', env: { ...UNLIMITED_CREATES, ADMISSION_MAX_QUEUE_SECONDS: String(MAX_QUEUE_SECONDS) } });
});

afterAll(async () => {
  await harness?.stop();
});

const create = (key: string, text: string) => http(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: { task_type: 'summarize', input: { text } } });

describe('admission past capacity', () => {
  it("refuses the busiest organisation's creates with 429 and Retry-After once work waits too long, admits a quiet one's, and admits again once drained", async () => {
    const flood = await harness.issueKey(FLOOD_ORGANIZATION, 'test');
    const quiet = await harness.issueKey(QUIET_ORGANIZATION, 'test');
    const accepted: string[] = [];
    let sent = 0;
    const refused = await eventually(
      async () => {
        const answer = await create(flood.key, `Item ${sent++} of ${FLOOD_ORGANIZATION}.`);
        if (answer.status === 202) accepted.push(answer.body.id);
        return answer;
      },
      (answer) => answer.status !== 202,
      'a create of the flooding organisation to be refused',
      30_000,
      200,
    );
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^The service is at capacity \(work waits \d+ s for a worker\); retry in \d+ s$/), request_id: expect.any(String) } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(30);

    const quietTask = await create(quiet.key, `The one task of ${QUIET_ORGANIZATION}.`);
    expect(quietTask.status).toBe(202);

    await harness.startWorker();
    for (const [key, id] of [...accepted.map((id) => [flood.key, id]), [quiet.key, quietTask.body.id]]) {
      await eventually(() => http(`${harness.baseUrl}/v1/ai/tasks/${id}`, { headers: bearer(key) }), (task) => task.body.status === 'succeeded', `task ${id} to succeed`, 60_000);
    }
    await eventually(() => create(flood.key, 'After the backlog drained.'), (answer) => answer.status === 202, 'the flooding organisation to be admitted again', 30_000, 500);
  });
});
