import * as net from 'node:net';
import { AssayHarness } from '../../support/assay-harness';
import { BuiltService } from '../../support/built-service';
import { freePort } from '../../../src/embedded/free-port';
import { ScriptedProvider } from '../../support/scripted-provider';
import { bearer, http } from '../../support/http';
import { sample, scrape } from '../../support/prometheus-text';
import { remoteProviderEnv } from '../../support/remote-provider-env';
import { AI_TASK_WORKFLOW_TYPE } from '../../../src/contract';
import { SUMMARIZE_TASK } from '../../support/tasks';
import { eventually } from '../../support/eventually';
import { TINY_GRAPH } from '../../support/graphs';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { isWorkerMetric, opsMetricNames } from '../../support/operators-kit';

const WORKER_READY = /"msg":"worker ready"/;
const NAMESPACES = 2;

let harness: AssayHarness;
let provider: ScriptedProvider;
let providerUrl: string;
let key: string;
const started: BuiltService[] = [];

beforeAll(async () => {
  provider = new ScriptedProvider('A scripted summary.');
  providerUrl = await provider.listen();
  // Assessments created here are overdue for a claim at once.
  harness = await AssayHarness.start({ worker: false, env: { ASSESSMENT_CLAIM_SLA: '1ms', ...remoteProviderEnv(providerUrl) } });
  key = (await harness.issueKey('acme', 'test')).key;
});

afterAll(async () => {
  await Promise.all(started.map((service) => service.kill()));
  await harness?.stop();
  await provider?.close();
});

async function spawnWorker(extra: Record<string, string>): Promise<BuiltService> {
  const worker = await BuiltService.start('worker', { ...harness.sharedEnv(), LOG_LEVEL: 'info', ...remoteProviderEnv(providerUrl), ...extra }, WORKER_READY, NAMESPACES);
  started.push(worker);
  return worker;
}

async function runTask(): Promise<{ id: string; status: string; error?: { code: string } }> {
  const created = await http(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: { ...bearer(key), prefer: 'wait=30' }, json: SUMMARIZE_TASK });
  expect([200, 202]).toContain(created.status);
  return created.body;
}

describe('worker metrics', () => {
  it("serves the Temporal SDK's metrics and tasks finished by type and outcome on WORKER_METRICS_PORT", async () => {
    const port = await freePort();
    const worker = await spawnWorker({ WORKER_METRICS_PORT: String(port) });
    provider.answer(200, 400);
    expect(await runTask()).toMatchObject({ status: 'succeeded' });
    expect(await runTask()).toMatchObject({ status: 'failed', error: { code: 'INPUT_REJECTED' } });

    const metrics = await scrape(`http://127.0.0.1:${port}/metrics`);
    expect(sample(metrics, 'assay_tasks_finished_total', { task_type: 'summarize', outcome: 'succeeded', error_code: 'none' })).toBe(1);
    expect(sample(metrics, 'assay_tasks_finished_total', { task_type: 'summarize', outcome: 'failed', error_code: 'INPUT_REJECTED' })).toBe(1);
    expect(sample(metrics, 'temporal_workflow_completed_total', { workflow_type: AI_TASK_WORKFLOW_TYPE })).toBe(2);
    expect(metrics).toMatch(/^temporal_activity_execution_latency_bucket\{/m);
    worker.signal('SIGTERM');
    await worker.exited;
  });

  it('keeps processing tasks, and says why, when its metrics port is taken', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', () => resolve()));
    try {
      const port = (taken.address() as net.AddressInfo).port;
      const worker = await spawnWorker({ WORKER_METRICS_PORT: String(port) });
      expect(worker.log).toContain('worker metrics endpoint could not start; running without it');
      provider.answer(200);
      expect(await runTask()).toMatchObject({ status: 'succeeded' });
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('counts webhook delivery attempts by outcome and review SLA breaches', async () => {
    // This worker alone may deliver: the others here refuse loopback webhook URLs.
    await Promise.all(started.splice(0).map((service) => service.kill()));
    const receiver = new WebhookReceiver();
    await receiver.listen();
    try {
      const port = await freePort();
      await spawnWorker({ WORKER_METRICS_PORT: String(port), WEBHOOKS_ALLOW_INSECURE_SANDBOX: 'true', WEBHOOK_RETRY_INITIAL_INTERVAL: '200ms', WEBHOOK_RETRY_MAX_INTERVAL: '1s' });
      const registered = await http(`${harness.baseUrl}/v1/webhook-endpoints`, { method: 'POST', headers: bearer(key), json: { url: receiver.url(), events: ['ai_task.completed'] } });
      expect(registered.status).toBe(201);
      receiver.answer({ status: 503 });
      provider.answer(200);
      expect(await runTask()).toMatchObject({ status: 'succeeded' });
      await receiver.waitFor(2);
      const assessment = await http(`${harness.baseUrl}/v1/network-assessments`, { method: 'POST', headers: bearer(key), json: { name: 'Late', context: 'EU', ...TINY_GRAPH } });
      expect(assessment.status).toBe(202);

      const metrics = await eventually(
        () => scrape(`http://127.0.0.1:${port}/metrics`),
        (text) => sample(text, 'assay_webhook_delivery_attempts_total', { outcome: 'succeeded' }) === 1 && sample(text, 'assay_assessment_reviews_overdue_total', { escalation: 'claim_overdue' }) === 1,
        'the delivery and overdue counters',
      );
      expect(sample(metrics, 'assay_webhook_delivery_attempts_total', { event_type: 'ai_task.completed', outcome: 'failed' })).toBe(1);
      expect(sample(metrics, 'assay_webhook_delivery_attempts_total', { event_type: 'ai_task.completed', outcome: 'succeeded' })).toBe(1);
      // Every worker metric the operators' dashboard and alert rules read (ops/) is one this worker serves.
      const served = new Set([...metrics.matchAll(/^([a-z_][a-z0-9_]*)[{ ]/gm)].map((match) => match[1]));
      expect([...opsMetricNames()].filter(isWorkerMetric).filter((name) => !served.has(name))).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
