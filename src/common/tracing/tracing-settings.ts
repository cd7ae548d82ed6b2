/** Where spans go: an OTLP endpoint (over the protocol chosen) and/or the process's stdout. */
export type SpanExporterKind = 'otlp' | 'console';
export type OtlpProtocol = 'grpc' | 'http/protobuf' | 'http/json';

export interface TracingSettings {
  exporters: SpanExporterKind[];
  otlpProtocol: OtlpProtocol;
}

export type TracingSettingsResult = { ok: true; settings: TracingSettings | undefined } | { ok: false; problem: string };

const EXPORTERS = new Set(['otlp', 'console', 'none']);
const PROTOCOLS = new Set<string>(['grpc', 'http/protobuf', 'http/json']);

/**
 * Tracing from the standard OpenTelemetry variables, off unless asked for: OTEL_TRACES_EXPORTER
 * (otlp, console, none, or a comma list), or an OTLP endpoint alone (which implies otlp, as the
 * specification's default exporter is otlp). OTEL_SDK_DISABLED=true wins over both. The exporters
 * read their own endpoint, headers, timeout and compression from the OTEL_EXPORTER_OTLP_* variables.
 */
export function tracingSettingsFromEnv(env: NodeJS.ProcessEnv): TracingSettingsResult {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return { ok: true, settings: undefined };
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const named = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  const unknown = named.filter((name) => !EXPORTERS.has(name));
  if (unknown.length > 0) return { ok: false, problem: `OTEL_TRACES_EXPORTER: unsupported exporter ${unknown.join(', ')} (use otlp, console or none)` };
  const requested = named.length > 0 ? named : endpoint ? ['otlp'] : [];
  const exporters = [...new Set(requested.filter((name): name is SpanExporterKind => name !== 'none'))];
  if (requested.includes('none') || exporters.length === 0) return { ok: true, settings: undefined };
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf').trim();
  if (!PROTOCOLS.has(protocol)) return { ok: false, problem: `OTEL_EXPORTER_OTLP_PROTOCOL: unsupported protocol ${protocol} (use grpc, http/protobuf or http/json)` };
  return { ok: true, settings: { exporters, otlpProtocol: protocol as OtlpProtocol } };
}
