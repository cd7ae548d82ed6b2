import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpGrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { Resource, envDetectorSync, processDetectorSync } from '@opentelemetry/resources';
import { BatchSpanProcessor, BasicTracerProvider, ConsoleSpanExporter, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TracingSettings } from './tracing-settings';

/** A process's tracing once started: what Temporal's workflow span sink needs, and the final flush. */
export interface Tracing {
  resource: Resource;
  spanProcessor: SpanProcessor;
  shutdown(): Promise<void>;
}

/**
 * Installs the process-wide tracer provider, the W3C trace-context propagator and the async
 * context manager, exporting through what the settings name. The service name is the process's
 * own (assay-api, assay-worker) unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise.
 */
export function startTracing(serviceName: string, settings: TracingSettings): Tracing {
  const resource = Resource.default()
    .merge(processDetectorSync.detect())
    .merge(new Resource({ [ATTR_SERVICE_NAME]: serviceName }))
    .merge(envDetectorSync.detect());
  const spanProcessors = settings.exporters.map((kind) => new BatchSpanProcessor(spanExporter(kind, settings)));
  const provider = new BasicTracerProvider({ resource, spanProcessors });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    resource,
    spanProcessor: provider.getActiveSpanProcessor(),
    shutdown: () => provider.shutdown(),
  };
}

function spanExporter(kind: TracingSettings['exporters'][number], settings: TracingSettings): SpanExporter {
  if (kind === 'console') return new ConsoleSpanExporter();
  switch (settings.otlpProtocol) {
    case 'grpc':
      return new OtlpGrpcExporter();
    case 'http/json':
      return new OtlpJsonExporter();
    case 'http/protobuf':
      return new OtlpProtobufExporter();
  }
}
