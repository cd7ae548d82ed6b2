import { Resource } from '@opentelemetry/resources';
import { NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor, makeWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import type { WorkerOptions } from '@temporalio/worker';
import type { Tracing } from '../common/tracing/start-tracing';

/**
 * The worker side of Temporal's OpenTelemetry interceptors. The workflow interceptors are always
 * in the prebuilt bundle (workflow-bundle.ts) and hand their spans to the `exporter` sink, which
 * therefore always exists: it exports through the process's tracing, or drops them when tracing
 * is off. Activities (local ones too) get a span, child of the workflow span that scheduled them.
 */
export function workerTracingOptions(tracing: Tracing | undefined): Pick<WorkerOptions, 'sinks' | 'interceptors'> {
  const sinks = { exporter: makeWorkflowExporter(tracing?.spanProcessor ?? new NoopSpanProcessor(), tracing?.resource ?? Resource.empty()) };
  if (!tracing) return { sinks };
  return {
    sinks,
    interceptors: { activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })] },
  };
}
