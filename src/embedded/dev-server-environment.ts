/**
 * The environment the Temporal dev server starts with: the launcher's own, less the OpenTelemetry
 * variables. Those configure Assay's tracing; the server reads the same names and refuses values
 * it does not support (`OTEL_TRACES_EXPORTER=console` makes it exit at once), so it gets none.
 */
export function devServerEnvironment(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(environment).filter(([name]) => !name.startsWith('OTEL_')));
}
