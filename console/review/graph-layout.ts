import type { NetworkComponent, NetworkLink } from '../../src/sdk';

export interface PlacedZone {
  zone: string;
  x: number;
  y: number;
  width: number;
  height: number;
  count: number;
}

export interface GraphLayout {
  width: number;
  height: number;
  cell: number;
  zones: PlacedZone[];
  /** Centre of each component, by id. */
  positions: Map<string, { x: number; y: number }>;
  links: NetworkLink[];
}

const ZONE_GAP = 16;
const ZONE_HEADER = 22;
const MAX_CELL = 34;
const MIN_CELL = 5;

/**
 * Zones side by side in rows (one column at phone width), each a grid of its components: the
 * layout is one pass over the components, so 2,000 of them lay out in well under a frame.
 */
export function layoutGraph(components: readonly NetworkComponent[], links: readonly NetworkLink[], width: number): GraphLayout {
  const byZone = new Map<string, NetworkComponent[]>();
  for (const component of components) {
    const list = byZone.get(component.zone) ?? [];
    list.push(component);
    byZone.set(component.zone, list);
  }
  const zoneNames = [...byZone.keys()].sort();
  const columns = Math.max(1, Math.min(zoneNames.length, Math.floor(width / 260)));
  const zoneWidth = (width - ZONE_GAP * (columns + 1)) / columns;
  const largest = Math.max(1, ...[...byZone.values()].map((list) => list.length));
  const perRow = Math.max(1, Math.ceil(Math.sqrt(largest * 1.6)));
  const cell = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor(zoneWidth / perRow)));
  const gridColumns = Math.max(1, Math.floor((zoneWidth - 8) / cell));

  const positions = new Map<string, { x: number; y: number }>();
  const zones: PlacedZone[] = [];
  let y = ZONE_GAP;
  for (let row = 0; row * columns < zoneNames.length; row++) {
    const rowZones = zoneNames.slice(row * columns, (row + 1) * columns);
    let rowHeight = 0;
    rowZones.forEach((zone, index) => {
      const members = byZone.get(zone) ?? [];
      const height = ZONE_HEADER + Math.ceil(members.length / gridColumns) * cell + 8;
      const x = ZONE_GAP + index * (zoneWidth + ZONE_GAP);
      members.forEach((component, position) => {
        positions.set(component.id, {
          x: x + 4 + (position % gridColumns) * cell + cell / 2,
          y: y + ZONE_HEADER + Math.floor(position / gridColumns) * cell + cell / 2,
        });
      });
      zones.push({ zone, x, y, width: zoneWidth, height, count: members.length });
      rowHeight = Math.max(rowHeight, height);
    });
    y += rowHeight + ZONE_GAP;
  }
  return { width, height: y, cell, zones, positions, links: [...links] };
}
