import type { NetworkComponent, NetworkGraph } from '../../src/contract';

/**
 * The graph as an undirected multigraph in compressed adjacency form: vertex i is `components[i]`,
 * its neighbours are `neighbours[offsets[i] .. offsets[i + 1])`, and `linkIndexes` at the same
 * position is the index of the link in `graph.links`. Keeping link identity (not just the neighbour)
 * is what lets the bridge search tell two parallel links apart.
 *
 * Only links between two distinct, existing components become edges; dangling links and
 * self-loops are reported by their own checks and change no path between components.
 */
export interface ComponentAdjacency {
  components: NetworkComponent[];
  indexById: Map<string, number>;
  offsets: Int32Array;
  neighbours: Int32Array;
  linkIndexes: Int32Array;
}

export function buildAdjacency(graph: NetworkGraph): ComponentAdjacency {
  const components: NetworkComponent[] = [];
  const indexById = new Map<string, number>();
  for (const component of graph.components) {
    // On a duplicate id the first definition wins; the duplicate is reported by its own check.
    if (!indexById.has(component.id)) {
      indexById.set(component.id, components.length);
      components.push(component);
    }
  }

  const endpoints = resolveEdgeEndpoints(graph, indexById);
  const vertexCount = components.length;
  const offsets = new Int32Array(vertexCount + 1);
  for (const [from, to] of endpoints.values()) {
    offsets[from + 1]++;
    offsets[to + 1]++;
  }
  for (let vertex = 0; vertex < vertexCount; vertex++) {
    offsets[vertex + 1] += offsets[vertex];
  }

  const neighbours = new Int32Array(offsets[vertexCount]);
  const linkIndexes = new Int32Array(offsets[vertexCount]);
  const nextSlot = offsets.slice(0, vertexCount);
  for (const [linkIndex, [from, to]] of endpoints) {
    neighbours[nextSlot[from]] = to;
    linkIndexes[nextSlot[from]++] = linkIndex;
    neighbours[nextSlot[to]] = from;
    linkIndexes[nextSlot[to]++] = linkIndex;
  }
  return { components, indexById, offsets, neighbours, linkIndexes };
}

export function degreeOf(adjacency: ComponentAdjacency, vertex: number): number {
  return adjacency.offsets[vertex + 1] - adjacency.offsets[vertex];
}

function resolveEdgeEndpoints(
  graph: NetworkGraph,
  indexById: Map<string, number>,
): Map<number, [number, number]> {
  const endpoints = new Map<number, [number, number]>();
  graph.links.forEach((link, linkIndex) => {
    const from = indexById.get(link.from);
    const to = indexById.get(link.to);
    if (from !== undefined && to !== undefined && from !== to) {
      endpoints.set(linkIndex, [from, to]);
    }
  });
  return endpoints;
}
