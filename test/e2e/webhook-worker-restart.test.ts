import { verifyWebhook } from '../../src/sdk';
import { AssayHarness } from '../support/assay-harness';
import { WebhookApi } from '../support/webhook-api';
import { WebhookReceiver } from '../support/webhook-receiver';

// Short retries instead of time-skipping (the dev server cannot skip time); see webhooks.test.ts.
const SHORT_RETRIES = { WEBHOOK_RETRY_INITIAL_INTERVAL: '200ms', WEBHOOK_RETRY_MAX_INTERVAL: '1s', WEBHOOK_RETRY_WINDOW: '2 minutes' };

let harness: AssayHarness;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = new WebhookReceiver();
  await receiver.listen();
  harness = await AssayHarness.start({ env: SHORT_RETRIES });
});

afterAll(async () => {
  await harness?.stop();
  await receiver?.close();
});

describe('a worker stopped in the middle of a delivery', () => {
  it('delivers on the next worker, with the same webhook-id, and records the success once', async () => {
    const api = new WebhookApi(harness);
    const { key } = await harness.issueKey('acme', 'test');
    const registered = await api.register(key, { url: receiver.url(), events: ['ai_task.completed'] });
    receiver.answer('hang');
    await api.createTask(key);
    await receiver.waitFor(1);

    // The receiver never answers the first attempt: the worker goes down while it is in flight.
    await harness.stopWorker();
    await harness.startWorker();

    const [first, second] = await receiver.waitFor(2);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    await expect(verifyWebhook(second.body, second.headers as Record<string, string>, registered.body.secret)).resolves.toMatchObject({
      type: 'ai_task.completed',
    });
    const deliveries = await api.deliveriesUntil(key, registered.body.id, (rows) => rows.some((row) => row.outcome === 'succeeded'));
    expect(deliveries.filter((row) => row.outcome === 'succeeded')).toHaveLength(1);
  });
});
