/** A Temporal server dynamic config setting, by its key, with the value every namespace and task queue gets. */
export type DynamicConfig = Readonly<Record<string, boolean | number | string>>;

/**
 * What Assay's fair dispatch needs from the Temporal server (1.32), for every server it runs on:
 * the embedded dev server passes it at start, a cluster puts it in its dynamic config file.
 *
 * Without it a task queue hands out tasks in arrival order whatever their fairness key, so one
 * organisation's backlog delays everyone behind it. With it the server keeps a pass counter per
 * fairness key and dispatches the backlogged key that has had the least (divided by its weight),
 * FIFO within a key. It implies `matching.useNewMatcher` (the priority-aware matcher, already on
 * by default in 1.32); 1.32 has it off by default.
 */
export const FAIR_DISPATCH_DYNAMIC_CONFIG: DynamicConfig = { 'matching.enableFairness': true };

/** The same server with fairness off (arrival order): what the bench and the ordering test compare against. */
export const ARRIVAL_ORDER_DYNAMIC_CONFIG: DynamicConfig = { 'matching.enableFairness': false };

/** `key=value` as `temporal server start-dev --dynamic-config-value` takes it (the value as YAML). */
export function dynamicConfigValues(config: DynamicConfig): string[] {
  return Object.entries(config).map(([key, value]) => `${key}=${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
}
