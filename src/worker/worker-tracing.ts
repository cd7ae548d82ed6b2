import { Resource } from '@opentelemetry/resources';
import { NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor, makeWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import type { WorkerOptions } from '@temporalio/worker';
import type { Tracing } from '../common/tracing/start-tracing';

/**
 * The worker side of Temporal's OpenTelemetry interceptors. The workflow interceptors are in the
 * prebuilt bundle (workflow-bundle.ts) and trace the workflows started with a trace context, which
 * this worker may receive with its own tracing off: their spans go to the `exporter` sink, which
 * therefore always exists, and it exports them through the process's tracing or drops them.
 * Activities (local ones too) get a span, child of the workflow span that scheduled them.
 */
export function workerTracingOptions(tracing: Tracing | undefined): Pick<WorkerOptions, 'sinks' | 'interceptors'> {
  const sinks = { exporter: makeWorkflowExporter(tracing?.spanProcessor ?? new NoopSpanProcessor(), tracing?.resource ?? Resource.empty()) };
  if (!tracing) return { sinks };
  return {
    sinks,
    interceptors: { activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })] },
  };
}
