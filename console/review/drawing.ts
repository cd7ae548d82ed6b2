import type { ElkExtendedEdge, ElkNode, ElkPoint } from 'elkjs/lib/elk-api';
import type { NetworkComponent, NetworkLink } from '../../src/sdk';
import { routes } from './graph-layout';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DrawnZone extends Box {
  zone: string;
  count: number;
}

export interface DrawnComponent extends Box {
  id: string;
  kind: string;
}

export interface DrawnLink {
  from: string;
  to: string;
  points: ElkPoint[];
}

/** What the console draws, in one coordinate space whose origin is the drawing's top left. */
export interface Drawing {
  width: number;
  height: number;
  /** Whether ELK routed the links; past graph-layout.ts's limits they are straight lines. */
  routed: boolean;
  zones: DrawnZone[];
  components: DrawnComponent[];
  links: DrawnLink[];
}

const SELF_LOOP = 10;

/** ELK's answer for `elkGraphOf(components, links)`, as boxes and polylines named by the graph's own ids. */
export function drawingOf(laidOut: ElkNode, components: readonly NetworkComponent[], links: readonly NetworkLink[]): Drawing {
  const zoneNames = [...new Set(components.map((component) => component.zone))];
  const drawing: Drawing = { width: laidOut.width ?? 0, height: laidOut.height ?? 0, routed: routes(components, links), zones: [], components: [], links: [] };
  const boxes = new Map<string, Box>();
  for (const zone of laidOut.children ?? []) {
    const members = zone.children ?? [];
    drawing.zones.push({ zone: zoneNames[indexOf(zone.id)], count: members.length, ...boxOf(zone) });
    for (const node of members) {
      const component = components[indexOf(node.id)];
      const box = boxOf(node);
      boxes.set(component.id, box);
      drawing.components.push({ id: component.id, kind: component.kind, ...box });
    }
  }
  for (const edge of edgesOf(laidOut)) {
    const link = links[indexOf(edge.id)];
    const [from, to] = [boxes.get(link.from), boxes.get(link.to)];
    if (!from || !to) continue;
    const routed = polylineOf(edge);
    drawing.links.push({ from: link.from, to: link.to, points: routed.length > 1 ? routed : straight(from, to) });
  }
  return drawing;
}

/** The index graph-layout.ts put after the one-letter prefix of an ELK id. */
function indexOf(elkId: string): number {
  return Number(elkId.slice(1));
}

function boxOf(node: ElkNode): Box {
  return { x: node.x ?? 0, y: node.y ?? 0, width: node.width ?? 0, height: node.height ?? 0 };
}

/** ELK may hand an edge back in the zone that holds both its ends rather than where it was given. */
function edgesOf(node: ElkNode): ElkExtendedEdge[] {
  return [...(node.edges ?? []), ...(node.children ?? []).flatMap(edgesOf)];
}

/** An edge's sections joined end to end, from its source to its target; empty when ELK did not route it. */
function polylineOf(edge: ElkExtendedEdge): ElkPoint[] {
  const sections = edge.sections ?? [];
  const byId = new Map(sections.map((section) => [section.id, section]));
  let section = sections.find((candidate) => !candidate.incomingSections?.length);
  const points: ElkPoint[] = [];
  const seen = new Set<string>();
  while (section && !seen.has(section.id)) {
    seen.add(section.id);
    points.push(section.startPoint, ...(section.bendPoints ?? []), section.endPoint);
    section = byId.get(section.outgoingSections?.[0] ?? '');
  }
  return points;
}

/** The line between two boxes' centres, cut at their borders; a link to itself, a small loop off its right side. */
export function straight(from: Box, to: Box): ElkPoint[] {
  if (from === to) {
    const right = from.x + from.width;
    const middle = from.y + from.height / 2;
    return [
      { x: right, y: middle - SELF_LOOP / 2 },
      { x: right + SELF_LOOP, y: middle - SELF_LOOP / 2 },
      { x: right + SELF_LOOP, y: middle + SELF_LOOP / 2 },
      { x: right, y: middle + SELF_LOOP / 2 },
    ];
  }
  const [a, b] = [centreOf(from), centreOf(to)];
  return [towards(a, b, from), towards(b, a, to)];
}

function centreOf(box: Box): ElkPoint {
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Where the ray from `centre` (the centre of `box`) towards `target` leaves the box. */
function towards(centre: ElkPoint, target: ElkPoint, box: Box): ElkPoint {
  const [dx, dy] = [target.x - centre.x, target.y - centre.y];
  if (dx === 0 && dy === 0) return centre;
  const scale = Math.min(dx === 0 ? Infinity : box.width / 2 / Math.abs(dx), dy === 0 ? Infinity : box.height / 2 / Math.abs(dy));
  return { x: centre.x + dx * scale, y: centre.y + dy * scale };
}
