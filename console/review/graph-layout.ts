import type { ElkExtendedEdge, ElkNode, LayoutOptions } from 'elkjs/lib/elk-api';
import type { NetworkComponent, NetworkLink } from '../../src/sdk';

/**
 * Up to this size ELK's layered algorithm places and routes everything: 1.4–2 s for the
 * 200-component test graph, 3–4 s for 200 or 300 components with 600 random links (in Node, on 2
 * cores). Its cost grows with the links and the layers each spans: 300 components with 1,500 random
 * links took 17 s, the largest accepted architecture (2,000 components, 10,000 links) 520 s (with
 * ELK's default placement). Past these limits each zone's components are packed in rows instead,
 * and links drawn straight.
 */
export const ROUTED_LIMITS = { components: 300, links: 600 } as const;

/** Component labels are 12 px monospace, so a box's width follows from its label's length alone. */
const CHARACTER_WIDTH = 7.3;
const MAX_LABEL_CHARACTERS = 24;
const BOX_PADDING = 10;
const MIN_BOX_WIDTH = 72;
const BOX_HEIGHT = 38;
/** Room at the top of each zone for its name. */
const ZONE_PADDING = '[top=34,left=12,bottom=12,right=12]';

/** Wanted at every level of the hierarchy: ELK reads these per compound node. */
const EVERY_LEVEL: LayoutOptions = {
  'elk.layered.mergeEdges': 'true',
  'elk.spacing.nodeNode': '18',
  'elk.layered.spacing.nodeNodeBetweenLayers': '36',
  'elk.spacing.edgeNode': '12',
  'elk.spacing.edgeEdge': '6',
  'elk.layered.spacing.edgeNodeBetweenLayers': '12',
};

/** Every coordinate ELK answers is then relative to the drawing's top left, whatever holds it. */
const ROOT_COORDINATES: LayoutOptions = { 'elk.json.shapeCoords': 'ROOT', 'elk.json.edgeCoords': 'ROOT', 'elk.padding': '[top=8,left=8,bottom=8,right=8]' };

/**
 * Layered left to right, zones laid out with their contents in one pass (INCLUDE_CHILDREN), so a
 * link between zones is routed, orthogonally, around the boxes of every zone on its way. Network
 * simplex placement and links into one box sharing their last stretch keep the drawing compact:
 * 3,035 × 2,370 for the 200-component test graph, 4,435 × 4,052 with ELK's defaults.
 */
const ROUTED: { root: LayoutOptions; zone: LayoutOptions } = {
  root: {
    'elk.algorithm': 'layered',
    'elk.direction': 'RIGHT',
    'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
    'elk.edgeRouting': 'ORTHOGONAL',
    'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
    ...ROOT_COORDINATES,
    ...EVERY_LEVEL,
  },
  zone: { 'elk.padding': ZONE_PADDING, ...EVERY_LEVEL },
};

/** Rows of boxes per zone and zones packed alike: under a second for 2,000 components; links are left to the drawing. */
const PACKED: { root: LayoutOptions; zone: LayoutOptions } = {
  root: { 'elk.algorithm': 'box', 'elk.aspectRatio': '1.6', 'elk.spacing.nodeNode': '24', ...ROOT_COORDINATES },
  zone: { 'elk.algorithm': 'box', 'elk.aspectRatio': '1.6', 'elk.spacing.nodeNode': '12', 'elk.padding': ZONE_PADDING },
};

/** Whether ELK routes the links of a graph this size (see ROUTED_LIMITS). */
export function routes(components: readonly unknown[], links: readonly unknown[]): boolean {
  return components.length <= ROUTED_LIMITS.components && links.length <= ROUTED_LIMITS.links;
}

/** Ids and kinds may be 128 and 64 characters long; a box shows their start, its title all of them. */
export function shortened(text: string): string {
  return text.length > MAX_LABEL_CHARACTERS ? `${text.slice(0, MAX_LABEL_CHARACTERS - 1)}…` : text;
}

/**
 * The graph as ELK takes it: a compound node per zone holding its components. Nodes and edges
 * get ids of their own, `z<zone index>`, `c<component index>`, `l<link index>` (a zone may share
 * a name with a component, and two links may join the same pair); a link naming no component is
 * left out, as ELK would refuse the whole graph for it.
 */
export function elkGraphOf(components: readonly NetworkComponent[], links: readonly NetworkLink[]): ElkNode {
  const options = routes(components, links) ? ROUTED : PACKED;
  const zones = new Map<string, ElkNode>();
  const nodeIds = new Map<string, string>();
  components.forEach((component, index) => {
    let zone = zones.get(component.zone);
    if (!zone) {
      zone = { id: `z${zones.size}`, layoutOptions: options.zone, children: [] };
      zones.set(component.zone, zone);
    }
    const id = `c${index}`;
    nodeIds.set(component.id, id);
    zone.children?.push({ id, width: boxWidth(component), height: BOX_HEIGHT });
  });
  const edges: ElkExtendedEdge[] = [];
  links.forEach((link, index) => {
    const source = nodeIds.get(link.from);
    const target = nodeIds.get(link.to);
    if (source && target) edges.push({ id: `l${index}`, sources: [source], targets: [target] });
  });
  return { id: 'root', layoutOptions: options.root, children: [...zones.values()], edges };
}

function boxWidth(component: NetworkComponent): number {
  const characters = Math.max(shortened(component.id).length, shortened(component.kind).length);
  return Math.max(MIN_BOX_WIDTH, Math.ceil(characters * CHARACTER_WIDTH) + 2 * BOX_PADDING);
}
