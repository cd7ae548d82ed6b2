import { TRACE_HEADER } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
import { TRACE_CONTEXT_HEADER } from '../../../../workflows/interceptors/tracing';

describe('workflow tracing', () => {
  it('recognises a traced start by the header the OpenTelemetry client interceptor writes', () => {
    expect(TRACE_CONTEXT_HEADER).toBe(TRACE_HEADER);
  });
});
