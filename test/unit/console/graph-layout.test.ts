import { layoutGraph } from '../../../console/review/graph-layout';
import { componentMarks } from '../../../console/review/severity';
import { largestAcceptedArchitecture, SINGLE_ZONE_GRAPH } from '../../support/graphs';

describe('the console draws an architecture by zone', () => {
  it('places every component inside its own zone box, zones never overlapping', () => {
    const { components, links } = largestAcceptedArchitecture();
    const layout = layoutGraph(components, links, 1200);
    expect(layout.positions.size).toBe(components.length);
    for (const component of components) {
      const position = layout.positions.get(component.id);
      const zone = layout.zones.find((candidate) => candidate.zone === component.zone);
      expect(position && zone).toBeTruthy();
      if (!position || !zone) continue;
      expect(position.x).toBeGreaterThan(zone.x);
      expect(position.x).toBeLessThan(zone.x + zone.width);
      expect(position.y).toBeGreaterThan(zone.y);
      expect(position.y).toBeLessThan(zone.y + zone.height);
    }
    for (const a of layout.zones) {
      for (const b of layout.zones) {
        if (a === b) continue;
        const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        expect(apart).toBe(true);
      }
    }
  });

  it('stacks zones in one column at phone width, within the width it was given', () => {
    const layout = layoutGraph(SINGLE_ZONE_GRAPH.components, SINGLE_ZONE_GRAPH.links, 360);
    expect(new Set(layout.zones.map((zone) => zone.x)).size).toBe(1);
    for (const zone of layout.zones) expect(zone.x + zone.width).toBeLessThanOrEqual(360);
  });

  it('marks each component with the worst severity naming it and whether it is a single point of failure', () => {
    const marks = componentMarks([
      { check: 'zone_redundancy', severity: 'medium', message: '', component_ids: ['db', 'app'] },
      { check: 'single_point_of_failure', severity: 'high', message: '', component_ids: ['db'] },
      { check: 'reachability', severity: 'low', message: '', component_ids: ['app'] },
    ]);
    expect(marks.get('db')).toEqual({ severity: 'high', singlePointOfFailure: true });
    expect(marks.get('app')).toEqual({ severity: 'medium', singlePointOfFailure: false });
    expect(marks.has('lb')).toBe(false);
  });
});
