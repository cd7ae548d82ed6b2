import { AssayApiError, AssayClient, type Task } from '../../src/sdk';
import { AssayHarness } from '../support/assay-harness';
import { eventually } from '../support/eventually';
import { HeldProvider } from '../support/held-provider';
import { remoteProviderEnv } from '../support/remote-provider-env';
import { WebhookReceiver } from '../support/webhook-receiver';

// The parts of the SDK beyond create-and-poll, each against the real service and a real Temporal.
let harness: AssayHarness;
let provider: HeldProvider;
let receiver: WebhookReceiver;

beforeAll(async () => {
  provider = new HeldProvider();
  receiver = new WebhookReceiver();
  harness = await AssayHarness.start({ env: remoteProviderEnv(await provider.listen()) });
  await receiver.listen();
});

afterAll(async () => {
  provider?.release();
  await harness?.stop();
  await provider?.close();
  await receiver?.close();
});

async function clientOfNewOrganisation(name: string): Promise<AssayClient> {
  return new AssayClient({ baseUrl: harness.baseUrl, apiKey: (await harness.issueKey(`${name}-${Date.now()}`, 'test')).key });
}

describe('AssayClient lists, cancel and webhook endpoints', () => {
  it('taskPages() walks every page of a filter, and cancelTask() ends a held task as CANCELED', async () => {
    const client = await clientOfNewOrganisation('pages');
    const created: Task[] = [];
    for (let i = 0; i < 5; i++) created.push(await client.createTask({ task_type: 'summarize', input: { text: `Held text number ${i}.` } }));

    const canceled = await Promise.all(created.map((task) => client.cancelTask(task.id)));
    expect(canceled.map((task) => task.id)).toEqual(created.map((task) => task.id));
    const final = await eventually(
      () => Promise.all(created.map((task) => client.getTask(task.id))),
      (tasks) => tasks.every((task) => task.status === 'failed'),
      'the canceled tasks to fail',
    );
    expect(final).toEqual(created.map(() => expect.objectContaining({ status: 'failed', error: expect.objectContaining({ code: 'CANCELED' }) })));

    const walk = async (): Promise<{ pages: number; ids: string[] }> => {
      const seen = { pages: 0, ids: [] as string[] };
      for await (const page of client.taskPages({ status: 'failed', limit: 2 })) {
        seen.pages += 1;
        seen.ids.push(...page.data.map((task) => task.id));
      }
      return seen;
    };
    // Visibility catches up with the closes a moment after GET shows them.
    const walked = await eventually(walk, (seen) => seen.ids.length === created.length, 'every canceled task in the failed list');
    expect(new Set(walked.ids)).toEqual(new Set(created.map((task) => task.id)));
    expect(walked.pages).toBe(3);

    // Canceling again is idempotent: the same canceled task, not an error.
    await expect(client.cancelTask(created[0].id)).resolves.toMatchObject({ id: created[0].id, status: 'failed', error: { code: 'CANCELED' } });
  });

  it('listAssessments() lists the assessments of the caller only', async () => {
    const client = await clientOfNewOrganisation('assessments');
    const other = await clientOfNewOrganisation('other');
    const assessment = await client.createAssessment({
      name: 'Two zones',
      context: 'A web tier in front of a database.',
      components: [
        { id: 'web', kind: 'load_balancer', zone: 'a' },
        { id: 'db', kind: 'database', zone: 'b' },
      ],
      links: [{ from: 'web', to: 'db' }],
    });
    const listed = await eventually(() => client.listAssessments(), (page) => page.data.length > 0, 'the assessment in its list');
    expect(listed.data.map((item) => item.assessment_id)).toEqual([assessment.assessment_id]);
    await expect(other.listAssessments()).resolves.toEqual({ data: [], has_more: false, next_cursor: null });
  });

  it('client.webhooks registers, reads, rotates, lists deliveries of and deletes an endpoint', async () => {
    const client = await clientOfNewOrganisation('hooks');
    const endpoint = await client.webhooks.create({ url: receiver.url(), events: ['ai_task.completed'], description: 'sdk test' });
    expect(endpoint).toMatchObject({ url: receiver.url(), status: 'enabled', secret: expect.stringMatching(/^whsec_/) });

    await expect(client.webhooks.get(endpoint.id)).resolves.toMatchObject({ id: endpoint.id, events: ['ai_task.completed'] });
    await expect(client.webhooks.list()).resolves.toEqual([expect.objectContaining({ id: endpoint.id })]);
    const rotated = await client.webhooks.rotateSecret(endpoint.id);
    expect(rotated.secret).not.toBe(endpoint.secret);
    await expect(client.webhooks.deliveries(endpoint.id)).resolves.toEqual([]);

    await client.webhooks.delete(endpoint.id);
    await expect(client.webhooks.get(endpoint.id)).rejects.toEqual(expect.any(AssayApiError));
    await expect(client.webhooks.list()).resolves.toEqual([]);
  });
});
