import { Client, Connection } from '@temporalio/client';
import { AI_TASK_WORKFLOW_TYPE, ASSESSMENT_WORKFLOW_TYPE, WEBHOOK_EVENT_WORKFLOW_TYPE, taskWorkflowId } from '../../../../src/contract';
import { freePort } from '../../../../src/embedded/free-port';
import { REQUEST_ID_ATTRIBUTE } from '../../../../src/api/platform/http/http-server-spans';
import { AssayHarness } from '../../../support/assay-harness';
import { BuiltService } from '../../../support/built-service';
import { TINY_GRAPH } from '../../../support/graphs';
import { bearer, http } from '../../../support/http';
import { approveAssessment } from '../../../support/review-assessment';
import { OtlpReceiver, type ReceivedSpan } from '../../../support/otlp-receiver';
import { recordHistoryIfAsked } from '../../../support/record-history';
import { SANDBOX_NAMESPACE } from '../../../support/test-temporal';
import { SUMMARIZE_TASK } from '../../../support/tasks';
import { WebhookReceiver } from '../../../support/webhook-receiver';
import { TRACE_CONTEXT_HEADER } from '../../../../workflows/interceptors/tracing';

const ORG = 'traced';
const SERVER_KIND = 2;
const CLIENT_KIND = 3;

let harness: AssayHarness;
let otlp: OtlpReceiver;
let receiver: WebhookReceiver;
let api: BuiltService;
let worker: BuiltService;
let baseUrl: string;
let key: string;

// The API and the worker run as their own processes from dist/, exporting to the in-test OTLP receiver.
beforeAll(async () => {
  otlp = new OtlpReceiver();
  const tracesUrl = await otlp.listen();
  receiver = new WebhookReceiver();
  await receiver.listen();
  harness = await AssayHarness.start({ worker: false });
  key = (await harness.issueKey(ORG, 'test')).key;
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    ...harness.sharedEnv(),
    LOG_LEVEL: 'info',
    WORKER_METRICS_PORT: '0',
    WEBHOOKS_ALLOW_INSECURE_SANDBOX: 'true',
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: tracesUrl,
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
  // At debug, the SDK logs each activity's start and end.
  worker = await BuiltService.start('worker', { ...env, LOG_LEVEL: 'debug' }, /"msg":"worker ready"/, 2);
  api = await BuiltService.start('api', { ...env, PORT: String(port) }, /listening on/);
  const registered = await http(`${baseUrl}/v1/webhook-endpoints`, { method: 'POST', headers: bearer(key), json: { url: receiver.url(), events: ['ai_task.completed', 'assessment.reviewed'] } });
  expect(registered.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await Promise.all([api?.kill(), worker?.kill()]);
  await harness?.stop();
  await receiver?.close();
  await otlp?.close();
});

/** The one span of the trace with this name (and from this process), failing clearly when there is none or several. */
function only(spans: ReceivedSpan[], name: string, service?: string): ReceivedSpan {
  const found = spans.filter((span) => span.name === name && (service === undefined || span.service === service));
  if (found.length !== 1) throw new Error(`expected one span "${name}", found ${found.length} among ${spans.map((span) => span.name).join(', ')}`);
  return found[0];
}

/** Each span of the chain is the parent of the next one. */
function expectChain(spans: ReceivedSpan[], names: Array<[name: string, service: string]>): ReceivedSpan[] {
  const chain = names.map(([name, service]) => only(spans, name, service));
  chain.slice(1).forEach((span, index) => expect({ span: span.name, parent: span.parentSpanId }).toEqual({ span: span.name, parent: chain[index].spanId }));
  return chain;
}

/** The chain from the API's request span to the webhook request, each span the parent of the next. */
function requestToDelivery(path: string, workflowType: string): Array<[string, string]> {
  return [
    [`POST ${path}`, 'assay-api'],
    [`StartWorkflow:${workflowType}`, 'assay-api'],
    [`RunWorkflow:${workflowType}`, 'assay-worker'],
    [`StartChildWorkflow:${WEBHOOK_EVENT_WORKFLOW_TYPE}`, 'assay-worker'],
    [`RunWorkflow:${WEBHOOK_EVENT_WORKFLOW_TYPE}`, 'assay-worker'],
    ['StartActivity:deliverWebhook', 'assay-worker'],
    ['RunActivity:deliverWebhook', 'assay-worker'],
    ['POST', 'assay-worker'],
  ];
}

function traceIdOf(traceparent: string | string[] | undefined): string {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(traceparent));
  if (!match) throw new Error(`no W3C traceparent on the webhook request: ${String(traceparent)}`);
  return match[1];
}

function logLines(service: BuiltService): Array<Record<string, unknown>> {
  return service.log.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Whether every span of the chain has arrived: a workflow's or an activity's span is exported only when it ends. */
const hasAll = (chain: Array<[string, string]>) => (spans: ReceivedSpan[]) => chain.every(([name]) => spans.some((span) => span.name === name));

describe('one trace per request, across the API and the worker', () => {
  it('runs from POST /v1/ai/tasks through the workflow, its local activities and the webhook child workflow to the delivery', async () => {
    const created = await http(`${baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: SUMMARIZE_TASK });
    expect(created.status).toBe(202);
    const [delivery] = await receiver.waitFor(1);
    const traceId = traceIdOf(delivery.headers.traceparent);
    const spans = await otlp.trace(traceId, hasAll(requestToDelivery('/v1/ai/tasks', AI_TASK_WORKFLOW_TYPE)));

    const [request, , run] = expectChain(spans, requestToDelivery('/v1/ai/tasks', AI_TASK_WORKFLOW_TYPE));
    expect(request).toMatchObject({ kind: SERVER_KIND, attributes: { [REQUEST_ID_ATTRIBUTE]: created.headers.get('x-request-id'), 'http.response.status_code': '202' } });
    // The request's log line names both ids, and the worker's lines about the task carry the same trace id.
    expect(logLines(api).find((line) => line.request_id === created.headers.get('x-request-id') && line.msg === 'request completed')).toMatchObject({ trace_id: traceId, span_id: request.spanId, process: 'api' });
    expect(logLines(worker).filter((line) => line.task_id === created.body.id)).toContainEqual(expect.objectContaining({ organisation: ORG, process: 'worker', msg: 'Activity completed' }));
    await worker.waitFor(/"msg":"webhook delivery attempt"/, 1, 10_000);
    expect(logLines(worker).filter((line) => line.trace_id === traceId)).toContainEqual(expect.objectContaining({ organisation: ORG, process: 'worker', msg: 'webhook delivery attempt', outcome: 'succeeded' }));
    expect(only(spans, 'POST')).toMatchObject({ kind: CLIENT_KIND, spanId: String(delivery.headers.traceparent).split('-')[2] });
    // The summary, the usage record and the subscriber check are one local activity of the task's run.
    const [start] = expectChain(spans, [['StartActivity:summarizeExtractiveAndRecordUsage', 'assay-worker'], ['RunActivity:summarizeExtractiveAndRecordUsage', 'assay-worker']]);
    expect(start.parentSpanId).toBe(run.spanId);
    // The workflow traces itself because its start carried the trace context (workflows/interceptors/tracing.ts).
    const connection = await Connection.connect({ address: harness.temporal.address });
    try {
      const history = await new Client({ connection, namespace: SANDBOX_NAMESPACE }).workflow.getHandle(taskWorkflowId(ORG, created.body.id)).fetchHistory();
      expect(Object.keys(history.events?.[0].workflowExecutionStartedEventAttributes?.header?.fields ?? {})).toContain(TRACE_CONTEXT_HEADER);
      recordHistoryIfAsked(history, 'ai-task-traced');
    } finally {
      await connection.close();
    }
  });

  it('runs from POST /v1/network-assessments through its check activities and, after the review, to the webhook delivery', async () => {
    const created = await http(`${baseUrl}/v1/network-assessments`, { method: 'POST', headers: bearer(key), json: { name: 'Shop', context: 'EU', ...TINY_GRAPH } });
    expect(created.status).toBe(202);
    await approveAssessment(harness.temporal.address, ORG, created.body.assessment_id);
    const delivery = (await receiver.waitFor(2))[1];
    const traceId = traceIdOf(delivery.headers.traceparent);
    const spans = await otlp.trace(traceId, hasAll(requestToDelivery('/v1/network-assessments', ASSESSMENT_WORKFLOW_TYPE)));

    const [request, , run] = expectChain(spans, requestToDelivery('/v1/network-assessments', ASSESSMENT_WORKFLOW_TYPE));
    expect(request.attributes[REQUEST_ID_ATTRIBUTE]).toBe(created.headers.get('x-request-id'));
    const checks = spans.filter((span) => span.name.startsWith('RunActivity:') && span.name !== 'RunActivity:deliverWebhook' && span.name !== 'RunActivity:hasWebhookSubscribers' && span.name !== 'RunActivity:prepareWebhookEvent');
    expect(checks.length).toBeGreaterThan(0);
    for (const check of checks) {
      const start = spans.find((span) => span.spanId === check.parentSpanId);
      expect(start).toMatchObject({ name: check.name.replace('RunActivity:', 'StartActivity:'), parentSpanId: run.spanId });
    }
  });
});
