// First: it gives the sandbox the browser globals OpenTelemetry's modules expect when they load.
import '@temporalio/interceptors-opentelemetry/lib/workflow/runtime';
import { BasicTracerProvider, SimpleSpanProcessor, type IdGenerator } from '@opentelemetry/sdk-trace-base';
import { OpenTelemetryInboundInterceptor, OpenTelemetryInternalsInterceptor, OpenTelemetryOutboundInterceptor } from '@temporalio/interceptors-opentelemetry/lib/workflow';
import { SpanExporter } from '@temporalio/interceptors-opentelemetry/lib/workflow/span-exporter';
import { workflowInfo } from '@temporalio/workflow';

/**
 * Temporal's OpenTelemetry workflow interceptors: a span for each workflow run and for each (local)
 * activity and child workflow it starts, whose context goes with the command's headers, exported
 * through the worker's `exporter` sink. They issue no command. Loaded by ./tracing.ts for the runs
 * started with a trace context only.
 *
 * One change to them: span and trace ids. OpenTelemetry's default generator draws on Math.random,
 * which in a workflow is the run's seeded generator, so every span would shift the numbers the
 * workflow's own uuid4() draws and break the replay of histories whose event ids came from it.
 * These ids come from the run id and a counter instead, and leave the workflow's random alone.
 */
let spansStarted = 0;

const runScopedIds: IdGenerator = {
  // Used only for a span with no parent: a start whose trace header held no valid context.
  generateTraceId: () => workflowInfo().runId.replace(/-/g, '').padEnd(32, '0').slice(0, 32),
  generateSpanId: () => fnv1a64(`${workflowInfo().runId}/${++spansStarted}`),
};

const tracer = new BasicTracerProvider({ idGenerator: runScopedIds, spanProcessors: [new SimpleSpanProcessor(new SpanExporter())] }).getTracer('@temporalio/interceptor-workflow');

class TracingInbound extends OpenTelemetryInboundInterceptor {
  protected override readonly tracer = tracer;
}

class TracingOutbound extends OpenTelemetryOutboundInterceptor {
  protected override readonly tracer = tracer;
}

export interface OpenTelemetryInterceptors {
  inbound: TracingInbound;
  outbound: TracingOutbound;
  internals: OpenTelemetryInternalsInterceptor;
}

export function openTelemetryInterceptors(): OpenTelemetryInterceptors {
  return { inbound: new TracingInbound(), outbound: new TracingOutbound(), internals: new OpenTelemetryInternalsInterceptor() };
}

const MASK_64 = 0xffffffffffffffffn;

/** 64-bit FNV-1a, mixed by SplitMix64's finalizer so that similar inputs give unrelated ids, as 16 hex digits (never all zeros, which would mean "no span"). */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let index = 0; index < text.length; index++) {
    hash = ((hash ^ BigInt(text.charCodeAt(index))) * 0x100000001b3n) & MASK_64;
  }
  hash = ((hash ^ (hash >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK_64;
  hash = ((hash ^ (hash >> 27n)) * 0x94d049bb133111ebn) & MASK_64;
  hash ^= hash >> 31n;
  return (hash === 0n ? 1n : hash).toString(16).padStart(16, '0');
}
