import type { Finding, NetworkGraph } from '../../src/contract';
import type { ComponentAdjacency } from './adjacency';
import { describeComponent, plural } from '../../src/findings/finding-text';

export const ARTICULATION_POINT_CHECK = 'single_point_of_failure';
export const BRIDGE_LINK_CHECK = 'bridge_link';

const NO_VERTEX = -1;
const NO_LINK = -1;

interface Bridge {
  linkIndex: number;
  parentVertex: number;
  childVertex: number;
  /** Components on the child's side of the bridge, out of `groupSize` in its connected group. */
  childSideSize: number;
  groupSize: number;
}

interface LowLinkResult {
  /** For each vertex, how many groups its connected group falls into without it (1 = harmless). */
  partsWithoutVertex: Int32Array;
  bridges: Bridge[];
}

/**
 * Components whose loss disconnects others (articulation points) and links whose loss does
 * (bridges), with links taken as undirected.
 */
export function findSinglePointsOfFailure(graph: NetworkGraph, adjacency: ComponentAdjacency): Finding[] {
  const { partsWithoutVertex, bridges } = computeLowLinks(adjacency);
  const findings: Finding[] = [];
  adjacency.components.forEach((component, vertex) => {
    const parts = partsWithoutVertex[vertex];
    if (parts >= 2) {
      findings.push({
        check: ARTICULATION_POINT_CHECK,
        severity: 'high',
        message: `Losing ${describeComponent(component)} splits the components connected through it into ${parts} separate groups.`,
        component_ids: [component.id],
      });
    }
  });
  for (const bridge of bridges) {
    findings.push(bridgeFinding(graph, adjacency, bridge));
  }
  return findings;
}

function bridgeFinding(graph: NetworkGraph, adjacency: ComponentAdjacency, bridge: Bridge): Finding {
  const link = graph.links[bridge.linkIndex];
  const parentSideSize = bridge.groupSize - bridge.childSideSize;
  const smallerSide = Math.min(bridge.childSideSize, parentSideSize);
  const largerSide = bridge.groupSize - smallerSide;
  const component_ids = [link.from, link.to];
  if (smallerSide === 1) {
    // Only one single-homed component is stranded: real, but narrower than a split of the estate.
    const stranded = bridge.childSideSize === 1 ? bridge.childVertex : bridge.parentVertex;
    return {
      check: BRIDGE_LINK_CHECK,
      severity: 'medium',
      message: `${describeComponent(adjacency.components[stranded])} hangs on the single link between '${link.from}' and '${link.to}'; losing that link cuts it off from the other ${plural(largerSide, 'component')}.`,
      component_ids,
    };
  }
  return {
    check: BRIDGE_LINK_CHECK,
    severity: 'high',
    message: `The link between '${link.from}' and '${link.to}' is the only connection between ${plural(smallerSide, 'component')} on one side and ${largerSide} on the other.`,
    component_ids,
  };
}

/**
 * Hopcroft–Tarjan low-link search, iterative so a 2,000-component chain cannot overflow the stack.
 * The edge back to the parent is skipped by link identity, not by neighbour, so a parallel link
 * to the parent counts as a second path and two parallel links are never a bridge. O(V + E).
 */
function computeLowLinks(adjacency: ComponentAdjacency): LowLinkResult {
  const { offsets, neighbours, linkIndexes } = adjacency;
  const vertexCount = adjacency.components.length;
  const discovery = new Int32Array(vertexCount).fill(-1);
  const low = new Int32Array(vertexCount);
  const parent = new Int32Array(vertexCount);
  const parentLink = new Int32Array(vertexCount);
  const nextEdge = new Int32Array(vertexCount);
  const subtreeSize = new Int32Array(vertexCount);
  const childCount = new Int32Array(vertexCount);
  const separatedChildren = new Int32Array(vertexCount);
  const partsWithoutVertex = new Int32Array(vertexCount).fill(1);
  const stack = new Int32Array(vertexCount);
  const bridgesWithRoot: { bridge: Omit<Bridge, 'groupSize'>; root: number }[] = [];
  let clock = 0;

  for (let root = 0; root < vertexCount; root++) {
    if (discovery[root] !== -1) continue;
    discovery[root] = low[root] = clock++;
    parent[root] = NO_VERTEX;
    parentLink[root] = NO_LINK;
    nextEdge[root] = offsets[root];
    subtreeSize[root] = 1;
    stack[0] = root;
    let stackSize = 1;

    while (stackSize > 0) {
      const vertex = stack[stackSize - 1];
      if (nextEdge[vertex] < offsets[vertex + 1]) {
        const edge = nextEdge[vertex]++;
        if (linkIndexes[edge] === parentLink[vertex]) continue;
        const neighbour = neighbours[edge];
        if (discovery[neighbour] === -1) {
          discovery[neighbour] = low[neighbour] = clock++;
          parent[neighbour] = vertex;
          parentLink[neighbour] = linkIndexes[edge];
          nextEdge[neighbour] = offsets[neighbour];
          subtreeSize[neighbour] = 1;
          stack[stackSize++] = neighbour;
        } else if (discovery[neighbour] < low[vertex]) {
          low[vertex] = discovery[neighbour];
        }
        continue;
      }
      stackSize--;
      const from = parent[vertex];
      if (from === NO_VERTEX) continue;
      if (low[vertex] < low[from]) low[from] = low[vertex];
      subtreeSize[from] += subtreeSize[vertex];
      childCount[from]++;
      if (low[vertex] >= discovery[from]) separatedChildren[from]++;
      if (low[vertex] > discovery[from]) {
        const bridge = {
          linkIndex: parentLink[vertex],
          parentVertex: from,
          childVertex: vertex,
          childSideSize: subtreeSize[vertex],
        };
        bridgesWithRoot.push({ bridge, root });
      }
    }

    // The root has no parent side: each DFS child is its own group once the root is gone.
    partsWithoutVertex[root] = childCount[root];
  }
  for (let vertex = 0; vertex < vertexCount; vertex++) {
    if (parent[vertex] !== NO_VERTEX && separatedChildren[vertex] > 0) {
      partsWithoutVertex[vertex] = separatedChildren[vertex] + 1;
    }
  }

  // A group's size is known only once its root is finished, after its bridges were found.
  const bridges = bridgesWithRoot.map(({ bridge, root }) => ({ ...bridge, groupSize: subtreeSize[root] }));
  return { partsWithoutVertex, bridges };
}
