import { tracingSettingsFromEnv } from '../../../../src/common/tracing/tracing-settings';

describe('tracing settings from the OTEL_* variables', () => {
  it('is off when nothing asks for it', () => {
    expect(tracingSettingsFromEnv({})).toEqual({ ok: true, settings: undefined });
    expect(tracingSettingsFromEnv({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({ ok: true, settings: undefined });
    expect(tracingSettingsFromEnv({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'console' })).toEqual({ ok: true, settings: undefined });
  });

  it('exports over OTLP, http/protobuf unless a protocol is named, when an exporter or an endpoint is set', () => {
    expect(tracingSettingsFromEnv({ OTEL_TRACES_EXPORTER: 'otlp' })).toEqual({ ok: true, settings: { exporters: ['otlp'], otlpProtocol: 'http/protobuf' } });
    expect(tracingSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toEqual({ ok: true, settings: { exporters: ['otlp'], otlpProtocol: 'grpc' } });
    expect(tracingSettingsFromEnv({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' })).toEqual({
      ok: true,
      settings: { exporters: ['otlp'], otlpProtocol: 'http/json' },
    });
  });

  it('takes a comma list, such as console and otlp together', () => {
    expect(tracingSettingsFromEnv({ OTEL_TRACES_EXPORTER: ' console , otlp,console' })).toEqual({ ok: true, settings: { exporters: ['console', 'otlp'], otlpProtocol: 'http/protobuf' } });
  });

  it('names an exporter or protocol it does not support', () => {
    expect(tracingSettingsFromEnv({ OTEL_TRACES_EXPORTER: 'zipkin' })).toEqual({ ok: false, problem: expect.stringContaining('unsupported exporter zipkin') });
    expect(tracingSettingsFromEnv({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'thrift' })).toEqual({ ok: false, problem: expect.stringContaining('unsupported protocol thrift') });
  });
});
