import { ASSESSMENT_LIMITS } from '../../src/contract/wire/assessment-limits';
import type { NetworkGraph } from '../../src/contract';

/**
 * A load balancer in front of two app servers and one database, all in zone eu-1a, reached from
 * the internet. Its findings are known: the load balancer and the database are single points of
 * failure (missing_redundancy, high) and both app servers share one zone (no_zone_redundancy,
 * medium). The checks ignore attributes and link kinds; they are here so the API is seen to keep them.
 */
export const SINGLE_ZONE_GRAPH: NetworkGraph = {
  components: [
    { id: 'net', kind: 'internet', zone: 'outside' },
    { id: 'lb', kind: 'load_balancer', zone: 'eu-1a' },
    { id: 'app-1', kind: 'app', zone: 'eu-1a', attributes: { cpu: 4, autoscaled: true } },
    { id: 'app-2', kind: 'app', zone: 'eu-1a' },
    { id: 'db', kind: 'database', zone: 'eu-1a', attributes: { engine: 'postgres' } },
  ],
  links: [
    { from: 'net', to: 'lb', kind: 'https' },
    { from: 'lb', to: 'app-1' },
    { from: 'lb', to: 'app-2' },
    { from: 'app-1', to: 'db' },
    { from: 'app-2', to: 'db' },
  ],
};

/** An app and its database: the smallest graph with a link, for tests that need an assessment but not its findings. */
export const TINY_GRAPH: NetworkGraph = {
  components: [
    { id: 'a', kind: 'app', zone: 'z1' },
    { id: 'b', kind: 'database', zone: 'z1' },
  ],
  links: [{ from: 'a', to: 'b' }],
};

/**
 * The largest architecture POST /v1/network-assessments accepts: the most components and links,
 * the longest context, everyday ids (13-15 characters), attributes on every component and a kind
 * on every link, so its size is that of a real graph at the limits.
 */
export function largestAcceptedArchitecture(): { name: string; context: string } & NetworkGraph {
  const ids = Array.from({ length: ASSESSMENT_LIMITS.components }, (_, index) => `service-${String(index).padStart(5, '0')}`);
  return {
    name: 'Largest accepted',
    context: 'c'.repeat(ASSESSMENT_LIMITS.contextLength),
    components: ids.map((id, index) => ({ id, kind: index % 10 === 0 ? 'database' : 'app', zone: `eu-1${'abc'[index % 3]}`, attributes: { cpu: 4, tier: 'web' } })),
    links: Array.from({ length: ASSESSMENT_LIMITS.links }, (_, index) => ({ from: ids[index % ids.length], to: ids[(index * 7 + 1) % ids.length], kind: 'tcp' })),
  };
}
