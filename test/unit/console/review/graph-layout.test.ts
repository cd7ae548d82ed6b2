import ELK from 'elkjs/lib/elk.bundled.js';
import { drawingOf } from '../../../../console/review/drawing';
import { elkGraphOf, ROUTED_LIMITS, shortened } from '../../../../console/review/graph-layout';
import { linksOffTheirEnds, overlappingPairs } from '../../../support/drawing-geometry';
import { tieredArchitecture } from '../../../support/tiered-architecture';

describe('the console lays an architecture out with ELK, by zone', () => {
  it('gives ELK one compound node per zone holding its components, ids of its own, and only links between known components', () => {
    const graph = elkGraphOf(
      [
        { id: 'eu-1a', kind: 'app', zone: 'eu-1a' },
        { id: 'db', kind: 'database', zone: 'eu-1b' },
        { id: 'cache', kind: 'cache', zone: 'eu-1a' },
      ],
      [
        { from: 'eu-1a', to: 'db' },
        { from: 'eu-1a', to: 'db' },
        { from: 'db', to: 'nowhere' },
      ],
    );
    expect(graph.children?.map((zone) => zone.children?.map((node) => node.id))).toEqual([['c0', 'c2'], ['c1']]);
    const ids = [graph.id, ...(graph.children ?? []).flatMap((zone) => [zone.id, ...(zone.children ?? []).map((node) => node.id)]), ...(graph.edges ?? []).map((edge) => edge.id)];
    expect(new Set(ids).size).toBe(ids.length);
    expect(graph.edges).toEqual([
      { id: 'l0', sources: ['c0'], targets: ['c1'] },
      { id: 'l1', sources: ['c0'], targets: ['c1'] },
    ]);
  });

  it('sizes a box for its label, and shortens a long id so that no box grows past a readable width', () => {
    const long = 'x'.repeat(128);
    const [short, longer] = elkGraphOf(
      [
        { id: 'db', kind: 'database', zone: 'z' },
        { id: long, kind: 'app', zone: 'z' },
      ],
      [],
    ).children?.[0].children ?? [];
    expect(longer.width).toBeGreaterThan(short.width ?? 0);
    expect(longer.width).toBeLessThan(200);
    expect(shortened(long)).toHaveLength(24);
    expect(shortened(long).endsWith('…')).toBe(true);
    expect(shortened('db')).toBe('db');
  });

  it.each([
    ['routed by ELK', 200, true],
    ['packed by zone, past the limits of routing', ROUTED_LIMITS.components + 100, false],
  ])('draws components %s inside their zones (%i of them), no two boxes overlapping, every link from the border of its source to that of its target', async (_, size, routed) => {
    const { components, links } = tieredArchitecture(size);
    const drawing = drawingOf(await new ELK().layout(elkGraphOf(components, links)), components, links);

    expect(drawing.routed).toBe(routed);
    expect(drawing.components.map((component) => component.id).sort()).toEqual(components.map((component) => component.id).sort());
    const boxes = new Map(drawing.components.map((component) => [component.id, component]));
    for (const component of components) {
      const zone = drawing.zones.find((candidate) => candidate.zone === component.zone);
      const box = boxes.get(component.id);
      expect(zone && box).toBeTruthy();
      if (!zone || !box) continue;
      expect(box.x).toBeGreaterThanOrEqual(zone.x);
      expect(box.y).toBeGreaterThanOrEqual(zone.y);
      expect(box.x + box.width).toBeLessThanOrEqual(zone.x + zone.width);
      expect(box.y + box.height).toBeLessThanOrEqual(zone.y + zone.height);
    }
    expect(overlappingPairs(new Map(drawing.zones.map((zone) => [zone.zone, zone])))).toEqual([]);
    expect(overlappingPairs(boxes)).toEqual([]);
    expect(drawing.links).toHaveLength(links.length);
    expect(linksOffTheirEnds(drawing.links, boxes, 0.5)).toEqual([]);
  });
});
