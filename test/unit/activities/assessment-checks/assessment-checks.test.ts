import {
  ARTICULATION_POINT_CHECK,
  BRIDGE_LINK_CHECK,
  DANGLING_LINK_CHECK,
  DUPLICATE_COMPONENT_CHECK,
  FINDINGS_TRUNCATED_CHECK,
  ISOLATED_COMPONENT_CHECK,
  MAX_FINDINGS_PER_CHECK,
  MISSING_REDUNDANCY_CHECK,
  runAssessmentChecks,
  SELF_LOOP_CHECK,
  SINGLE_ZONE_CHECK,
  UNREACHABLE_COMPONENTS_CHECK,
} from '../../../../activities/assessment-checks';
import type { Finding, NetworkComponent, NetworkGraph, NetworkLink } from '../../../../src/contract';

function component(id: string, kind = 'server', zone = 'zone-a'): NetworkComponent {
  return { id, kind, zone };
}

function servers(...ids: string[]): NetworkComponent[] {
  return ids.map((id) => component(id));
}

function links(...pairs: [string, string][]): NetworkLink[] {
  return pairs.map(([from, to]) => ({ from, to }));
}

function findingsOf(graph: NetworkGraph, check: string): Finding[] {
  return runAssessmentChecks(graph).filter((finding) => finding.check === check);
}

function articulationIds(graph: NetworkGraph): string[] {
  return findingsOf(graph, ARTICULATION_POINT_CHECK)
    .map((finding) => finding.component_ids[0])
    .sort();
}

/** Bridges as "from-to" keys; parallel links are never bridges, so a pair names one link. */
function bridgeKeys(graph: NetworkGraph): string[] {
  return findingsOf(graph, BRIDGE_LINK_CHECK)
    .map((finding) => finding.component_ids.join('-'))
    .sort();
}

function chain(length: number): NetworkGraph {
  const ids = Array.from({ length }, (_, index) => `c${index}`);
  return {
    components: ids.map((id) => component(id)),
    links: ids.slice(1).map((id, index) => ({ from: ids[index], to: id })),
  };
}

/** Deterministic pseudo-random numbers (mulberry32) so the generated graphs are the same every run. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Counts connected groups by brute force, ignoring one component or one link. */
function countGroups(graph: NetworkGraph, skipComponent?: string, skipLink?: number): number {
  const ids = graph.components.map((c) => c.id).filter((id) => id !== skipComponent);
  const parent = new Map(ids.map((id) => [id, id]));
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root) as string;
    return root;
  };
  graph.links.forEach((link, index) => {
    if (index === skipLink || !parent.has(link.from) || !parent.has(link.to)) return;
    parent.set(find(link.from), find(link.to));
  });
  return new Set(ids.map(find)).size;
}

function bruteForceArticulationIds(graph: NetworkGraph): string[] {
  const groups = countGroups(graph);
  return graph.components
    .filter((c) => {
      const isolated = !graph.links.some((l) => l.from !== l.to && (l.from === c.id || l.to === c.id));
      // Removing a component loses its own group only if it was alone; more groups means a split.
      return countGroups(graph, c.id) > groups - (isolated ? 1 : 0);
    })
    .map((c) => c.id)
    .sort();
}

function bruteForceBridgeKeys(graph: NetworkGraph): string[] {
  const groups = countGroups(graph);
  return graph.links
    .filter((link, index) => link.from !== link.to && countGroups(graph, undefined, index) > groups)
    .map((link) => `${link.from}-${link.to}`)
    .sort();
}

function randomGraph(random: () => number, componentCount: number, linkCount: number): NetworkGraph {
  const ids = Array.from({ length: componentCount }, (_, index) => `n${index}`);
  const pick = (): string => ids[Math.floor(random() * componentCount)];
  return {
    components: servers(...ids),
    links: Array.from({ length: linkCount }, () => ({ from: pick(), to: pick() })),
  };
}

describe('articulation points and bridges', () => {
  it('a path has every inner component as an articulation point and every link as a bridge', () => {
    const path = { components: servers('a', 'b', 'c', 'd'), links: links(['a', 'b'], ['b', 'c'], ['c', 'd']) };
    expect(articulationIds(path)).toEqual(['b', 'c']);
    expect(bridgeKeys(path)).toEqual(['a-b', 'b-c', 'c-d']);
  });

  it('a cycle has no single point of failure', () => {
    const cycle = {
      components: servers('a', 'b', 'c', 'd'),
      links: links(['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'a']),
    };
    expect(articulationIds(cycle)).toEqual([]);
    expect(bridgeKeys(cycle)).toEqual([]);
  });

  it('link direction does not matter: a cycle drawn with mixed arrows is still a cycle', () => {
    const cycle = { components: servers('a', 'b', 'c'), links: links(['a', 'b'], ['c', 'b'], ['a', 'c']) };
    expect(articulationIds(cycle)).toEqual([]);
    expect(bridgeKeys(cycle)).toEqual([]);
  });

  it('two triangles joined by one link have both link ends as articulation points and the link as a bridge', () => {
    const graph = {
      components: servers('a1', 'a2', 'a3', 'b1', 'b2', 'b3'),
      links: links(['a1', 'a2'], ['a2', 'a3'], ['a3', 'a1'], ['b1', 'b2'], ['b2', 'b3'], ['b3', 'b1'], ['a3', 'b1']),
    };
    expect(articulationIds(graph)).toEqual(['a3', 'b1']);
    const [bridge] = findingsOf(graph, BRIDGE_LINK_CHECK);
    expect(bridge).toEqual({
      check: BRIDGE_LINK_CHECK,
      severity: 'high',
      message: "The link between 'a3' and 'b1' is the only connection between 3 components on one side and 3 on the other.",
      component_ids: ['a3', 'b1'],
    });
  });

  it('the hub of a star is an articulation point splitting its spokes apart', () => {
    const star = {
      components: servers('hub', 's1', 's2', 's3', 's4'),
      links: links(['hub', 's1'], ['hub', 's2'], ['hub', 's3'], ['s4', 'hub']),
    };
    expect(findingsOf(star, ARTICULATION_POINT_CHECK)).toEqual([
      {
        check: ARTICULATION_POINT_CHECK,
        severity: 'high',
        message: "Losing 'hub' (server, zone zone-a) splits the components connected through it into 4 separate groups.",
        component_ids: ['hub'],
      },
    ]);
    expect(bridgeKeys(star)).toEqual(['hub-s1', 'hub-s2', 'hub-s3', 's4-hub']);
  });

  it('a bridge that strands one single-homed component is medium and names it', () => {
    const star = { components: servers('hub', 's1', 's2'), links: links(['hub', 's1'], ['s2', 'hub']) };
    const bridges = findingsOf(star, BRIDGE_LINK_CHECK);
    expect(bridges.map((finding) => finding.severity)).toEqual(['medium', 'medium']);
    expect(bridges[1].message).toBe(
      "'s2' (server, zone zone-a) hangs on the single link between 's2' and 'hub'; losing that link cuts it off from the other 2 components.",
    );
  });

  it('a bridge that splits groups of two or more is high', () => {
    const path = { components: servers('a', 'b', 'c', 'd'), links: links(['a', 'b'], ['b', 'c'], ['c', 'd']) };
    const severities = Object.fromEntries(
      findingsOf(path, BRIDGE_LINK_CHECK).map((finding) => [finding.component_ids.join('-'), finding.severity]),
    );
    expect(severities).toEqual({ 'a-b': 'medium', 'b-c': 'high', 'c-d': 'medium' });
  });

  it('two parallel links between the same pair are not a bridge', () => {
    const graph = { components: servers('a', 'b', 'c'), links: links(['a', 'b'], ['b', 'a'], ['b', 'c']) };
    expect(bridgeKeys(graph)).toEqual(['b-c']);
    expect(articulationIds(graph)).toEqual(['b']);
  });

  it('a self-loop adds no redundancy to the link it sits beside', () => {
    const graph = { components: servers('a', 'b'), links: links(['a', 'b'], ['b', 'b']) };
    expect(bridgeKeys(graph)).toEqual(['a-b']);
    expect(articulationIds(graph)).toEqual([]);
  });

  it('each disconnected part is searched on its own', () => {
    const graph = {
      components: servers('a', 'b', 'c', 'x', 'y', 'z', 'w'),
      links: links(['a', 'b'], ['b', 'c'], ['c', 'a'], ['x', 'y'], ['y', 'z'], ['z', 'w']),
    };
    expect(articulationIds(graph)).toEqual(['y', 'z']);
    expect(bridgeKeys(graph)).toEqual(['x-y', 'y-z', 'z-w']);
  });

  it('agrees with brute force on random multigraphs with parallel links and self-loops', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 40; round++) {
      const graph = randomGraph(random, 5 + Math.floor(random() * 25), Math.floor(random() * 45));
      expect(articulationIds(graph)).toEqual(bruteForceArticulationIds(graph));
      expect(bridgeKeys(graph)).toEqual(bruteForceBridgeKeys(graph));
    }
  });
});

describe('zone redundancy', () => {
  it('a kind with several components all in one zone is reported with every id, sorted', () => {
    const graph = {
      components: [component('app-2', 'app', 'eu-1a'), component('app-1', 'app', 'eu-1a')],
      links: links(['app-1', 'app-2']),
    };
    expect(findingsOf(graph, SINGLE_ZONE_CHECK)).toEqual([
      {
        check: SINGLE_ZONE_CHECK,
        severity: 'medium',
        message: "All 2 app components ('app-1' and 'app-2') sit in zone eu-1a; one zone outage takes every one of them down.",
        component_ids: ['app-1', 'app-2'],
      },
    ]);
  });

  it('a kind spread over two zones is fine', () => {
    const graph = {
      components: [component('app-1', 'app', 'eu-1a'), component('app-2', 'app', 'eu-1b')],
      links: links(['app-1', 'app-2']),
    };
    expect(findingsOf(graph, SINGLE_ZONE_CHECK)).toEqual([]);
  });

  it('a lone component of a kind that must be redundant is high', () => {
    const graph = {
      components: [component('db', 'database'), component('app-1', 'app'), component('app-2', 'app', 'zone-b')],
      links: links(['app-1', 'db'], ['app-2', 'db']),
    };
    expect(findingsOf(graph, MISSING_REDUNDANCY_CHECK)).toEqual([
      {
        check: MISSING_REDUNDANCY_CHECK,
        severity: 'high',
        message: "'db' (database, zone zone-a) is the only database; a database needs a second instance, ideally in another zone.",
        component_ids: ['db'],
      },
    ]);
  });

  it('a lone component of an ordinary kind is not reported', () => {
    const graph = { components: [component('cache', 'cache'), component('app', 'app')], links: links(['app', 'cache']) };
    expect(findingsOf(graph, MISSING_REDUNDANCY_CHECK)).toEqual([]);
  });

  it('kinds are compared case- and separator-insensitively', () => {
    const graph = {
      components: [component('lb-1', 'Load Balancer', 'eu-1a'), component('lb-2', 'load-balancer', 'eu-1a')],
      links: links(['lb-1', 'lb-2']),
    };
    expect(findingsOf(graph, MISSING_REDUNDANCY_CHECK)).toEqual([]);
    expect(findingsOf(graph, SINGLE_ZONE_CHECK).map((finding) => finding.component_ids)).toEqual([['lb-1', 'lb-2']]);
  });

  it('components outside the estate, such as the internet, are not asked to be zone-redundant', () => {
    const graph = {
      components: [component('users', 'user', 'outside'), component('net', 'internet', 'outside')],
      links: links(['users', 'net']),
    };
    expect(findingsOf(graph, SINGLE_ZONE_CHECK)).toEqual([]);
    const twoInternets = {
      components: [component('net-1', 'internet', 'outside'), component('net-2', 'internet', 'outside')],
      links: links(['net-1', 'net-2']),
    };
    expect(findingsOf(twoInternets, SINGLE_ZONE_CHECK)).toEqual([]);
  });
});

describe('isolated and unreachable components', () => {
  it('a component with no link to another component is isolated, and only isolated', () => {
    const graph = {
      components: servers('a', 'b', 'alone', 'loop', 'dangler'),
      links: links(['a', 'b'], ['loop', 'loop'], ['dangler', 'ghost']),
    };
    expect(findingsOf(graph, ISOLATED_COMPONENT_CHECK).map((finding) => finding.component_ids[0])).toEqual([
      'alone',
      'dangler',
      'loop',
    ]);
    expect(findingsOf(graph, ISOLATED_COMPONENT_CHECK)[0].message).toBe(
      "'alone' (server, zone zone-a) has no link to any other component.",
    );
    expect(findingsOf(graph, UNREACHABLE_COMPONENTS_CHECK)).toEqual([]);
  });

  it('a graph of one component reports nothing about reachability', () => {
    expect(runAssessmentChecks({ components: servers('only'), links: [] })).toEqual([]);
  });

  it('with an entry component, every connected group without one is unreachable', () => {
    const graph = {
      components: [
        component('net', 'internet', 'outside'),
        component('lb', 'load_balancer'),
        component('lb-2', 'load_balancer', 'zone-b'),
        component('app', 'app'),
        component('batch-2', 'worker'),
        component('batch-1', 'worker', 'zone-b'),
      ],
      links: links(['net', 'lb'], ['net', 'lb-2'], ['lb', 'app'], ['lb-2', 'app'], ['batch-1', 'batch-2']),
    };
    expect(findingsOf(graph, UNREACHABLE_COMPONENTS_CHECK)).toEqual([
      {
        check: UNREACHABLE_COMPONENTS_CHECK,
        severity: 'medium',
        message:
          "2 components ('batch-1' and 'batch-2') have no path to any entry point (internet, gateway, load balancer, …).",
        component_ids: ['batch-1', 'batch-2'],
      },
    ]);
  });

  it('a connected group holding an entry component is reachable however small', () => {
    const graph = {
      components: [component('gw', 'gateway'), component('edge', 'server'), ...servers('a', 'b', 'c')],
      links: links(['gw', 'edge'], ['a', 'b'], ['b', 'c']),
    };
    expect(findingsOf(graph, UNREACHABLE_COMPONENTS_CHECK).map((finding) => finding.component_ids)).toEqual([
      ['a', 'b', 'c'],
    ]);
  });

  it('without entry components, every group but the largest is unreachable', () => {
    const graph = { components: servers('a', 'b', 'c', 'x', 'y'), links: links(['a', 'b'], ['b', 'c'], ['x', 'y']) };
    const [finding] = findingsOf(graph, UNREACHABLE_COMPONENTS_CHECK);
    expect(finding.component_ids).toEqual(['x', 'y']);
    expect(finding.message).toBe(
      "2 components ('x' and 'y') are cut off from the largest connected part of the architecture.",
    );
  });

  it('without entry components, a tie for largest keeps the group holding the smallest id', () => {
    const graph = { components: servers('y', 'x', 'b', 'a'), links: links(['y', 'x'], ['b', 'a']) };
    expect(findingsOf(graph, UNREACHABLE_COMPONENTS_CHECK).map((finding) => finding.component_ids)).toEqual([
      ['x', 'y'],
    ]);
  });

  it('a long list of ids is shortened in the message but complete in component_ids', () => {
    const ids = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7'];
    const graph = {
      components: [component('net', 'internet', 'outside'), component('lb', 'load_balancer'), ...servers(...ids)],
      links: [...links(['net', 'lb']), ...ids.slice(1).map((id, index) => ({ from: ids[index], to: id }))],
    };
    const [finding] = findingsOf(graph, UNREACHABLE_COMPONENTS_CHECK);
    expect(finding.message).toContain("('m1', 'm2', 'm3', 'm4', 'm5' and 2 more)");
    expect(finding.component_ids).toEqual(ids);
  });
});

describe('dangling links, self-loops and duplicate ids', () => {
  it('a link naming an unknown component is reported with only the ends that exist', () => {
    const graph = { components: servers('a', 'b'), links: links(['a', 'b'], ['a', 'ghost'], ['ghost', 'phantom']) };
    expect(findingsOf(graph, DANGLING_LINK_CHECK)).toEqual([
      {
        check: DANGLING_LINK_CHECK,
        severity: 'medium',
        message: "Link #3 from 'ghost' to 'phantom' names 'ghost' and 'phantom', which is not a component; the checks ignore this link.",
        component_ids: [],
      },
      {
        check: DANGLING_LINK_CHECK,
        severity: 'medium',
        message: "Link #2 from 'a' to 'ghost' names 'ghost', which is not a component; the checks ignore this link.",
        component_ids: ['a'],
      },
    ]);
  });

  it('a link from a component to itself is a low self-loop finding', () => {
    const graph = { components: servers('a', 'b'), links: links(['a', 'b'], ['b', 'b']) };
    expect(findingsOf(graph, SELF_LOOP_CHECK)).toEqual([
      {
        check: SELF_LOOP_CHECK,
        severity: 'low',
        message: "Link #2 connects 'b' to itself; it adds no redundancy and is probably a drawing mistake.",
        component_ids: ['b'],
      },
    ]);
  });

  it('a self-loop on an unknown id is only a dangling link', () => {
    const graph = { components: servers('a', 'b'), links: links(['a', 'b'], ['ghost', 'ghost']) };
    expect(findingsOf(graph, SELF_LOOP_CHECK)).toEqual([]);
    expect(findingsOf(graph, DANGLING_LINK_CHECK)).toHaveLength(1);
  });

  it('a duplicated id is reported and its first definition is the one checked', () => {
    const graph = {
      components: [component('db', 'database', 'eu-1a'), component('db-2', 'database', 'eu-1a'), component('db', 'cache', 'eu-1b')],
      links: links(['db', 'db-2']),
    };
    expect(findingsOf(graph, DUPLICATE_COMPONENT_CHECK)).toEqual([
      {
        check: DUPLICATE_COMPONENT_CHECK,
        severity: 'medium',
        message:
          "Component id 'db' is defined 2 times; the checks use the first definition, 'db' (database, zone eu-1a), and ignore 1 other.",
        component_ids: ['db'],
      },
    ]);
    expect(findingsOf(graph, SINGLE_ZONE_CHECK).map((finding) => finding.component_ids)).toEqual([['db', 'db-2']]);
  });
});

describe('finding order', () => {
  const mixed: NetworkGraph = {
    components: [
      component('web', 'server', 'eu-1a'),
      component('db', 'database', 'eu-1a'),
      component('app-2', 'app', 'eu-1a'),
      component('app-1', 'app', 'eu-1a'),
      component('spare', 'server', 'eu-1b'),
    ],
    links: links(['web', 'app-1'], ['web', 'app-2'], ['app-1', 'db'], ['app-2', 'db'], ['db', 'db'], ['web', 'nowhere']),
  };

  it('sorts by severity, then check, then first component id', () => {
    expect(runAssessmentChecks(mixed).map((f) => [f.severity, f.check, f.component_ids[0]])).toEqual([
      ['high', MISSING_REDUNDANCY_CHECK, 'db'],
      ['medium', DANGLING_LINK_CHECK, 'web'],
      ['medium', ISOLATED_COMPONENT_CHECK, 'spare'],
      ['medium', SINGLE_ZONE_CHECK, 'app-1'],
      ['low', SELF_LOOP_CHECK, 'db'],
    ]);
  });

  it('does not depend on the order components and links were submitted in', () => {
    const graph = randomGraph(seededRandom(11), 40, 50);
    const shuffle = <T>(items: T[], random: () => number): T[] =>
      items
        .map((item) => ({ item, key: random() }))
        .sort((a, b) => a.key - b.key)
        .map(({ item }) => item);
    const random = seededRandom(12);
    const withoutSelfLoops = { ...graph, links: graph.links.filter((link) => link.from !== link.to) };
    const reordered = {
      components: shuffle(withoutSelfLoops.components, random),
      links: shuffle(withoutSelfLoops.links, random),
    };
    expect(runAssessmentChecks(reordered)).toEqual(runAssessmentChecks(withoutSelfLoops));
  });
});

describe('cap on findings per check', () => {
  it(`keeps the first ${MAX_FINDINGS_PER_CHECK} findings of a check and summarises the rest`, () => {
    const spokes = Array.from({ length: 150 }, (_, index) => `s${String(index).padStart(3, '0')}`);
    const star = {
      components: servers('hub', ...spokes),
      links: spokes.map((spoke) => ({ from: 'hub', to: spoke })),
    };
    const findings = runAssessmentChecks(star);
    const bridges = findings.filter((finding) => finding.check === BRIDGE_LINK_CHECK);
    expect(bridges).toHaveLength(MAX_FINDINGS_PER_CHECK);
    expect(bridges[0].component_ids).toEqual(['hub', 's000']);
    expect(bridges[MAX_FINDINGS_PER_CHECK - 1].component_ids).toEqual(['hub', 's099']);
    expect(findings[findings.length - 1]).toEqual({
      check: FINDINGS_TRUNCATED_CHECK,
      severity: 'info',
      message: `50 more findings of check ${BRIDGE_LINK_CHECK} omitted; at most ${MAX_FINDINGS_PER_CHECK} are reported per check.`,
      component_ids: [],
    });
  });

  it('keeps the most severe findings of a check when it must drop some', () => {
    const ids = Array.from({ length: 120 }, (_, index) => `c${String(index).padStart(3, '0')}`);
    // A path: its two end links strand one component (medium), every other link splits it (high).
    const findings = findingsOf(
      { components: servers(...ids), links: ids.slice(1).map((id, index) => ({ from: ids[index], to: id })) },
      BRIDGE_LINK_CHECK,
    );
    expect(findings.every((finding) => finding.severity === 'high')).toBe(true);
  });
});

describe('largest accepted graph', () => {
  it('handles 2,000 components and 10,000 links with known single points of failure', () => {
    // A 1,990-component ring thickened by random chords, plus a 10-link tail hanging off it.
    const random = seededRandom(2000);
    const ids = Array.from({ length: 2000 }, (_, index) => `c${index}`);
    const ringSize = 1990;
    const graphLinks: NetworkLink[] = [];
    for (let index = 0; index < ringSize; index++) {
      graphLinks.push({ from: ids[index], to: ids[(index + 1) % ringSize] });
    }
    for (let index = ringSize; index < ids.length; index++) {
      graphLinks.push({ from: ids[index - 1], to: ids[index] });
    }
    while (graphLinks.length < 10_000) {
      const pick = (): string => ids[Math.floor(random() * ringSize)];
      graphLinks.push({ from: pick(), to: pick() });
    }
    const zones = ['eu-1a', 'eu-1b', 'eu-1c'];
    const graph: NetworkGraph = {
      components: ids.map((id, index) => component(id, index % 7 === 0 ? 'database' : 'server', zones[index % 3])),
      links: graphLinks,
    };

    const findings = runAssessmentChecks(graph);

    const tail = ids.slice(ringSize - 1);
    expect(articulationIds(graph)).toEqual(tail.slice(0, -1).sort());
    expect(bridgeKeys(graph)).toEqual(tail.slice(1).map((id, index) => `${tail[index]}-${id}`).sort());
    expect(findings.filter((finding) => finding.check === SELF_LOOP_CHECK).length).toBeGreaterThan(0);
    expect(JSON.stringify(findings).length).toBeLessThan(256 * 1024);
  });

  it('handles a 2,000-component chain without recursing, capping its 1,998 + 1,999 findings', () => {
    const findings = runAssessmentChecks(chain(2000));
    expect(findings.filter((finding) => finding.check === ARTICULATION_POINT_CHECK)).toHaveLength(MAX_FINDINGS_PER_CHECK);
    expect(findings.filter((finding) => finding.check === FINDINGS_TRUNCATED_CHECK).map((finding) => finding.message)).toEqual([
      `1898 more findings of check ${ARTICULATION_POINT_CHECK} omitted; at most ${MAX_FINDINGS_PER_CHECK} are reported per check.`,
      `1899 more findings of check ${BRIDGE_LINK_CHECK} omitted; at most ${MAX_FINDINGS_PER_CHECK} are reported per check.`,
    ]);
  });

  it('stays iterative far beyond the accepted size: a 50,000-component chain does not overflow the stack', () => {
    expect(() => runAssessmentChecks(chain(50_000))).not.toThrow();
  });

  it('keeps the result small when every component is isolated and every link dangles', () => {
    const ids = Array.from({ length: 2000 }, (_, index) => `component-${index}`);
    const findings = runAssessmentChecks({
      components: servers(...ids),
      links: Array.from({ length: 10_000 }, (_, index) => ({ from: ids[index % 2000], to: `missing-${index}` })),
    });
    expect(findings.filter((finding) => finding.check === ISOLATED_COMPONENT_CHECK)).toHaveLength(MAX_FINDINGS_PER_CHECK);
    expect(findings.filter((finding) => finding.check === DANGLING_LINK_CHECK)).toHaveLength(MAX_FINDINGS_PER_CHECK);
    expect(JSON.stringify(findings).length).toBeLessThan(256 * 1024);
  });
});
