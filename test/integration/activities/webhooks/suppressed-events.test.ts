import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createActivities } from '../../../../activities';
import { ExtractiveProvider } from '../../../../activities/summarize/extractive-provider';
import { AppConfig } from '../../../../src/common/config/app-config';
import { Storage } from '../../../../src/common/storage/storage';
import type { ResolvedAddress } from '../../../../src/common/webhooks/webhook-url-policy';
import { TEST_WEBHOOK_EVENT_TYPE, webhookEventWorkflowId, type WebhookEventInput } from '../../../../src/contract';
import { webhookEventWorkflow } from '../../../../workflows';
import { SANDBOX_NAMESPACE } from '../../../support/test-temporal';
import { storeEndpoint } from '../../../support/stored-webhook';
import { WebhookReceiver } from '../../../support/webhook-receiver';
import { startWorkflowTestbed, type WorkflowTestbed } from '../../../support/workflow-testbed';

// The delivery activity against an erasure: the event workflow runs on a real server with the real
// activities and storage; the receiver's host name resolves through a resolver the test can hold,
// so an attempt can be caught under way (past its first checks, not yet sent) when the erasure comes.
const OWNER = { organizationId: 'acme', environment: 'test' } as const;
// Long enough that the test suppresses the event before the second attempt starts.
const RETRY = { initialIntervalMs: 2_000, maximumIntervalMs: 2_000, windowMs: 60_000 };

/** Resolves every name to loopback; while held, an attempt waits in it until release. */
class HeldResolver {
  private held?: { arrived: () => void; release: Promise<void>; releaseNow: () => void };
  private arrival?: Promise<void>;

  readonly resolve = async (): Promise<ResolvedAddress[]> => {
    const held = this.held;
    if (held) {
      held.arrived();
      await held.release;
    }
    return [{ address: '127.0.0.1', family: 4 }];
  };

  hold(): void {
    let arrived = () => {};
    let releaseNow = () => {};
    this.arrival = new Promise((resolve) => (arrived = resolve));
    const release = new Promise<void>((resolve) => (releaseNow = resolve));
    this.held = { arrived, release, releaseNow };
  }

  /** Resolves once an attempt waits in the resolver. */
  arrived(): Promise<void> {
    if (!this.arrival) throw new Error('not held');
    return this.arrival;
  }

  release(): void {
    this.held?.releaseNow();
    this.held = undefined;
  }
}

let testbed: WorkflowTestbed;
let storage: Storage;
let dataDir: string;
const receiver = new WebhookReceiver();
const resolver = new HeldResolver();
let endpointUrl: string;

beforeAll(async () => {
  testbed = await startWorkflowTestbed('error');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-suppressed-'));
  storage = await Storage.open(new AppConfig({ DATA_DIR: dataDir }));
  await receiver.listen();
  endpointUrl = `http://receiver.example:${new URL(receiver.url()).port}/hooks`;
});

afterAll(async () => {
  resolver.release();
  await receiver.close();
  await storage?.close();
  await testbed?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

function newEndpoint(): Promise<string> {
  return storeEndpoint(storage.webhooks, OWNER.organizationId, OWNER.environment, endpointUrl);
}

const newEventId = () => `evt_${randomUUID().replace(/-/g, '')}`;

/** Starts the event workflow of one event to one endpoint on a worker with the real webhook activities; `during` runs while it runs. */
async function deliverEvent(endpointId: string, during: (eventId: string) => Promise<void>, eventId = newEventId()) {
  const taskQueue = `suppressed-${randomUUID()}`;
  const worker = await testbed.createWorker({
    taskQueue,
    activities: createActivities({
      summarizer: new ExtractiveProvider(),
      webhooks: {
        store: storage.webhooks,
        retry: RETRY,
        allowInsecureSandbox: true,
        retentionMs: 86_400_000,
        environmentOf: (namespace) => (namespace === SANDBOX_NAMESPACE ? 'test' : 'live'),
        resolve: resolver.resolve,
      },
    }),
  });
  const input: WebhookEventInput = {
    eventId,
    type: TEST_WEBHOOK_EVENT_TYPE,
    createdAt: new Date().toISOString(),
    organizationId: OWNER.organizationId,
    resourceId: endpointId,
    sourceWorkflowId: 'none',
    endpointId,
  };
  return worker.runUntil(async () => {
    const handle = await testbed.client.workflow.start(webhookEventWorkflow, { taskQueue, workflowId: webhookEventWorkflowId(OWNER.organizationId, eventId), args: [input] });
    await during(eventId);
    return { summary: await handle.result(), eventId };
  });
}

const requestsFor = (eventId: string) => receiver.received.filter((request) => request.headers['webhook-id'] === eventId);

describe('a delivery attempt of a suppressed event (its resource erased)', () => {
  it('sends nothing when the erasure comes while the attempt is under way; an event not suppressed is sent', async () => {
    const endpointId = await newEndpoint();
    const control = await deliverEvent(endpointId, async () => {});
    expect(control.summary).toMatchObject({ delivered: 1, skipped: 0, failed: 0 });
    expect(requestsFor(control.eventId)).toHaveLength(1);

    resolver.hold();
    const erased = await deliverEvent(endpointId, async (eventId) => {
      await resolver.arrived();
      await storage.webhooks.suppressEvents(OWNER, [eventId], new Date().toISOString());
      resolver.release();
    });
    expect(erased.summary).toMatchObject({ delivered: 0, skipped: 1, failed: 0 });
    expect(requestsFor(erased.eventId)).toEqual([]);
  });

  it('sends nothing more once an event that was being retried is suppressed, even when the receiver answers again', async () => {
    const endpointId = await newEndpoint();
    receiver.answer({ status: 503 });
    const result = await deliverEvent(endpointId, async (eventId) => {
      while (requestsFor(eventId).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      await storage.webhooks.suppressEvents(OWNER, [eventId], new Date().toISOString());
    });
    expect(result.summary).toMatchObject({ delivered: 0, skipped: 1, failed: 0 });
    expect(requestsFor(result.eventId)).toHaveLength(1);
    expect((await storage.webhooks.listDeliveries(endpointId, 10)).map((delivery) => delivery.httpStatus)).toEqual([503]);
  });

  it('is suppressed for its owner only: the same event id of another organisation is still sent', async () => {
    const endpointId = await newEndpoint();
    const eventId = newEventId();
    await storage.webhooks.suppressEvents({ organizationId: 'globex', environment: 'test' }, [eventId], new Date().toISOString());
    await storage.webhooks.suppressEvents({ organizationId: 'acme', environment: 'live' }, [eventId], new Date().toISOString());
    const result = await deliverEvent(endpointId, async () => {}, eventId);
    expect(result.summary).toMatchObject({ delivered: 1, skipped: 0, failed: 0 });
    expect(requestsFor(eventId)).toHaveLength(1);
  });
});
