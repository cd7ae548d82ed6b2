import type { WorkflowInboundCallsInterceptor, WorkflowInterceptorsFactory, WorkflowInternalsInterceptor, WorkflowOutboundCallsInterceptor } from '@temporalio/workflow';
import type { OpenTelemetryInterceptors } from './open-telemetry-interceptors';

/**
 * The start header in which Temporal's OpenTelemetry client interceptor sends the caller's trace
 * context (the library's TRACE_HEADER, not imported: its module loads OpenTelemetry; a unit test
 * holds the two equal).
 */
export const TRACE_CONTEXT_HEADER = '_tracer-data';

/**
 * Workflow tracing, for the runs started with a trace context: the API's client sends one when
 * tracing is on, and a traced run passes it to its children. Only those runs load OpenTelemetry.
 * Each run in the sandbox evaluates its own copy of every module it requires, and OpenTelemetry's
 * are about 250: loaded for every run, they made an assessment's replay half as long again (16 →
 * 24 ms, docs/observability.md), on every start and every replay of an evicted workflow, with
 * tracing off as well.
 *
 * Whether a run is traced is decided from its start's headers, which are in its history, so a
 * replay decides the same. The interceptors issue no command either way.
 */
export const interceptors: WorkflowInterceptorsFactory = () => {
  let tracing: OpenTelemetryInterceptors | undefined;
  const inbound: WorkflowInboundCallsInterceptor = {
    execute: (input, next) => {
      if (input.headers[TRACE_CONTEXT_HEADER] !== undefined) tracing = loadOpenTelemetry();
      return tracing ? tracing.inbound.execute(input, next) : next(input);
    },
    handleSignal: (input, next) => (tracing ? tracing.inbound.handleSignal(input, next) : next(input)),
    handleUpdate: (input, next) => (tracing ? tracing.inbound.handleUpdate(input, next) : next(input)),
    validateUpdate: (input, next) => (tracing ? tracing.inbound.validateUpdate(input, next) : next(input)),
    handleQuery: (input, next) => (tracing ? tracing.inbound.handleQuery(input, next) : next(input)),
  };
  const outbound: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: (input, next) => (tracing ? tracing.outbound.scheduleActivity(input, next) : next(input)),
    scheduleLocalActivity: (input, next) => (tracing ? tracing.outbound.scheduleLocalActivity(input, next) : next(input)),
    startNexusOperation: (input, next) => (tracing ? tracing.outbound.startNexusOperation(input, next) : next(input)),
    startChildWorkflowExecution: (input, next) => (tracing ? tracing.outbound.startChildWorkflowExecution(input, next) : next(input)),
    continueAsNew: (input, next) => (tracing ? tracing.outbound.continueAsNew(input, next) : next(input)),
    signalWorkflow: (input, next) => (tracing ? tracing.outbound.signalWorkflow(input, next) : next(input)),
    getLogAttributes: (input, next) => (tracing ? tracing.outbound.getLogAttributes(input, next) : next(input)),
  };
  const internals: WorkflowInternalsInterceptor = {
    dispose: (input, next) => (tracing ? tracing.internals.dispose(input, next) : next(input)),
  };
  return { inbound: [inbound], outbound: [outbound], internals: [internals] };
};

function loadOpenTelemetry(): OpenTelemetryInterceptors {
  // A require, not an import: an import would load OpenTelemetry into every run (see above).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require('./open-telemetry-interceptors') as typeof import('./open-telemetry-interceptors');
  return loaded.openTelemetryInterceptors();
}
