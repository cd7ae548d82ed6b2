import { revisionDiff } from '../../../../src/api/review/revision-diff';
import type { Finding, NetworkGraph } from '../../../../src/contract';

const OLDER = 'asmt_01JB8ZM2D7E9F1G3H5J7K9M1N3';

const older: NetworkGraph = {
  components: [
    { id: 'lb', kind: 'load_balancer', zone: 'a' },
    { id: 'app-1', kind: 'service', zone: 'a' },
    { id: 'db', kind: 'database', zone: 'a' },
  ],
  links: [
    { from: 'lb', to: 'app-1', kind: 'https' },
    { from: 'app-1', to: 'db' },
  ],
};

const newer: NetworkGraph = {
  components: [
    { id: 'lb', kind: 'load_balancer', zone: 'a', attributes: { tier: 'edge' } },
    { id: 'app-1', kind: 'service', zone: 'a' },
    { id: 'app-2', kind: 'service', zone: 'b' },
    { id: 'db-a', kind: 'database', zone: 'a' },
  ],
  links: [
    // Same ends, another kind: a different link.
    { from: 'lb', to: 'app-1', kind: 'http' },
    { from: 'lb', to: 'app-2', kind: 'https' },
    { from: 'app-1', to: 'db-a' },
  ],
};

const finding = (check: string, componentIds: string[], message = `${check} on ${componentIds.join(', ')}`): Finding => ({ check, severity: 'high', message, component_ids: componentIds });

describe('revision diff', () => {
  it('tells components added and removed by id, whatever else changed in them', () => {
    const diff = revisionDiff(OLDER, { graph: older, findings: [] }, { graph: newer, findings: [] });
    expect(diff).toMatchObject({ of: OLDER, components_added: ['app-2', 'db-a'], components_removed: ['db'] });
  });

  it('tells links by their ends and kind', () => {
    const diff = revisionDiff(OLDER, { graph: older, findings: [] }, { graph: newer, findings: [] });
    expect(diff.links_added).toEqual([{ from: 'lb', to: 'app-1', kind: 'http' }, { from: 'lb', to: 'app-2', kind: 'https' }, { from: 'app-1', to: 'db-a' }]);
    expect(diff.links_removed).toEqual([{ from: 'lb', to: 'app-1', kind: 'https' }, { from: 'app-1', to: 'db' }]);
  });

  it('matches findings by check and the set of their components, not by message or order', () => {
    const olderFindings = [finding('single_point_of_failure', ['db']), finding('no_zone_redundancy', ['app-1', 'lb'], 'Old words.'), finding('bridge_link', ['app-1', 'db'])];
    const newerFindings = [finding('no_zone_redundancy', ['lb', 'app-1'], 'New words.'), finding('single_point_of_failure', ['db-a']), finding('isolated_component', ['db'])];
    const diff = revisionDiff(OLDER, { graph: older, findings: olderFindings }, { graph: newer, findings: newerFindings });
    expect(diff.findings_fixed).toEqual([olderFindings[0], olderFindings[2]]);
    expect(diff.findings_new).toEqual([newerFindings[1], newerFindings[2]]);
  });

  it('leaves the findings out while either side has none yet (checks running)', () => {
    const diff = revisionDiff(OLDER, { graph: older, findings: [finding('single_point_of_failure', ['db'])] }, { graph: newer, findings: undefined });
    expect(diff).not.toHaveProperty('findings_fixed');
    expect(diff).not.toHaveProperty('findings_new');
  });

  it('finds nothing changed between a graph and itself', () => {
    const findings = [finding('single_point_of_failure', ['db'])];
    expect(revisionDiff(OLDER, { graph: older, findings }, { graph: structuredClone(older), findings: structuredClone(findings) })).toEqual({
      of: OLDER,
      components_added: [],
      components_removed: [],
      links_added: [],
      links_removed: [],
      findings_fixed: [],
      findings_new: [],
    });
  });

  it('does not mistake ids that join into the same text for one link', () => {
    const diff = revisionDiff(OLDER, { graph: { components: [], links: [{ from: 'a:b', to: 'c' }] }, findings: [] }, { graph: { components: [], links: [{ from: 'a', to: 'b:c' }] }, findings: [] });
    expect(diff.links_added).toHaveLength(1);
    expect(diff.links_removed).toHaveLength(1);
  });
});
