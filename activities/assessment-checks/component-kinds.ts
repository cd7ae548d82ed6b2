/**
 * Customers spell kinds freely ("Load Balancer", "load-balancer", "load_balancer"); every check
 * compares kinds in this one normalised form so they agree with each other.
 */
export function normalizeKind(kind: string): string {
  return kind.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

/**
 * Kinds whose single instance takes the whole service down with it, so one alone is a finding.
 * Deliberately short: a longer list would flag components that are commonly and safely single.
 */
export const KINDS_REQUIRING_REDUNDANCY: ReadonlySet<string> = new Set([
  'load_balancer',
  'database',
  'firewall',
  'router',
  'gateway',
  'dns',
]);

/**
 * Kinds through which traffic enters the architecture. When a graph has any, "reachable" means
 * connected to one of them; when it has none, the largest connected group stands in for them.
 */
export const ENTRY_KINDS: ReadonlySet<string> = new Set([
  'internet',
  'external',
  'user',
  'client',
  'cdn',
  'gateway',
  'api_gateway',
  'load_balancer',
]);

/** Kinds outside the customer's estate: their zone placement is not the customer's to make redundant. */
export const EXTERNAL_KINDS: ReadonlySet<string> = new Set(['internet', 'external', 'user', 'client']);
