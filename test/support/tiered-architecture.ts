import type { NetworkComponent, NetworkGraph, NetworkLink } from '../../src/contract';

const ZONES = ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'];
/** Per zone, front to back; the shares sum to 1. */
const TIERS = [
  { kind: 'web', share: 0.3 },
  { kind: 'api', share: 0.3 },
  { kind: 'worker', share: 0.15 },
  { kind: 'cache', share: 0.15 },
  { kind: 'database', share: 0.1 },
];

/**
 * A three-zone web architecture of `size` components (at least 20) reached from the internet,
 * with shared services in a zone of their own: load balancers in front of web servers, which call
 * APIs in their own and the next zone, which use caches, databases and workers; everything logs
 * to the shared monitoring. Links cross zones, as a real deployment's do.
 */
export function tieredArchitecture(size: number): { name: string; context: string } & NetworkGraph {
  const components: NetworkComponent[] = [
    { id: 'internet', kind: 'internet', zone: 'outside' },
    { id: 'dns', kind: 'dns', zone: 'shared-services' },
    { id: 'monitoring', kind: 'monitoring', zone: 'shared-services' },
  ];
  const links: NetworkLink[] = [{ from: 'internet', to: 'dns', kind: 'dns' }];
  const perZone = (size - components.length) / ZONES.length - 1;
  const byTier = (zone: number, kind: string) => components.filter((component) => component.zone === ZONES[zone] && component.kind === kind).map((component) => component.id);

  ZONES.forEach((zone, zoneIndex) => {
    const remaining = size - components.length;
    const count = zoneIndex === ZONES.length - 1 ? remaining - 1 : Math.round(perZone);
    components.push({ id: `lb-${zone}`, kind: 'load_balancer', zone });
    links.push({ from: 'internet', to: `lb-${zone}`, kind: 'https' });
    let placed = 0;
    TIERS.forEach(({ kind, share }, tierIndex) => {
      const tierCount = tierIndex === TIERS.length - 1 ? count - placed : Math.max(1, Math.round(count * share));
      for (let index = 0; index < tierCount; index++) components.push({ id: `${kind}-${zone.slice(-2)}-${String(index + 1).padStart(2, '0')}`, kind, zone });
      placed += tierCount;
    });
  });

  ZONES.forEach((zone, zoneIndex) => {
    const next = (zoneIndex + 1) % ZONES.length;
    const [apis, nextApis, caches, databases, workers] = [byTier(zoneIndex, 'api'), byTier(next, 'api'), byTier(zoneIndex, 'cache'), byTier(zoneIndex, 'database'), byTier(zoneIndex, 'worker')];
    byTier(zoneIndex, 'web').forEach((web, index) => {
      links.push({ from: `lb-${zone}`, to: web, kind: 'http' });
      links.push({ from: web, to: apis[index % apis.length], kind: 'grpc' });
      if (index % 3 === 0) links.push({ from: web, to: nextApis[index % nextApis.length], kind: 'grpc' });
    });
    apis.forEach((api, index) => {
      links.push({ from: api, to: caches[index % caches.length], kind: 'redis' });
      links.push({ from: api, to: databases[index % databases.length], kind: 'postgres' });
      if (index % 2 === 0) links.push({ from: api, to: workers[index % workers.length], kind: 'queue' });
    });
    workers.forEach((worker, index) => {
      links.push({ from: worker, to: databases[index % databases.length], kind: 'postgres' });
      links.push({ from: worker, to: 'monitoring', kind: 'otlp' });
    });
  });
  return { name: `Tiered web architecture, ${components.length} components`, context: 'Three availability zones behind load balancers.', components, links };
}
