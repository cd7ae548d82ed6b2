import { AssayHarness } from '../../../../support/assay-harness';
import { bearer, http } from '../../../../support/http';
import { sample, scrape } from '../../../../support/prometheus-text';
import { SUMMARIZE_TASK } from '../../../../support/tasks';

let harness: AssayHarness;
let key: string;

beforeAll(async () => {
  harness = await AssayHarness.start({ worker: false });
  key = (await harness.issueKey('acme', 'test')).key;
});

afterAll(async () => {
  await harness?.stop();
});

describe('API metrics', () => {
  it('serves Prometheus text on /metrics without a key', async () => {
    const response = await fetch(`${harness.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await response.text()).toContain('# TYPE assay_http_request_duration_seconds histogram');
  });

  it('times requests by method, route template and status, never by raw URL', async () => {
    await http(`${harness.baseUrl}/v1/ai/tasks/task_01JAAAAAAAAAAAAAAAAAAAAAAA`, { headers: bearer(key) });
    await http(`${harness.baseUrl}/no/such/route/${'x'.repeat(20)}`);
    const metrics = await scrape(`${harness.baseUrl}/metrics`);
    expect(sample(metrics, 'assay_http_request_duration_seconds_count', { method: 'GET', route: '/v1/ai/tasks/:taskId', status_code: '404' })).toBe(1);
    expect(sample(metrics, 'assay_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    expect(metrics).not.toContain('task_01JAAAAAAAAAAAAAAAAAAAAAAA');
    expect(metrics).not.toContain('xxxxxxxxxx');
  });

  it('counts created tasks by type, and names no organisation or key', async () => {
    const before = sample(await scrape(`${harness.baseUrl}/metrics`), 'assay_tasks_created_total', { task_type: 'summarize' }) ?? 0;
    const idempotencyKey = 'metrics-replay-1';
    for (let attempt = 0; attempt < 2; attempt++) {
      const created = await http(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: { ...bearer(key), 'idempotency-key': idempotencyKey }, json: SUMMARIZE_TASK });
      expect(created.status).toBe(202);
    }
    const metrics = await scrape(`${harness.baseUrl}/metrics`);
    expect(sample(metrics, 'assay_tasks_created_total', { task_type: 'summarize' })).toBe(before + 1);
    expect(metrics).not.toContain('acme');
    expect(metrics).not.toContain(key.slice(0, 16));
  });

  it('includes the Node.js process metrics', async () => {
    expect(await scrape(`${harness.baseUrl}/metrics`)).toContain('process_cpu_user_seconds_total');
  });
});
