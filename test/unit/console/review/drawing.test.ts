import { drawingOf, straight } from '../../../../console/review/drawing';
import { onBorder } from '../../../support/drawing-geometry';

const A = { x: 0, y: 0, width: 100, height: 40 };
const B = { x: 300, y: 200, width: 80, height: 40 };

describe("the console's drawing of ELK's answer", () => {
  it('joins the sections of a routed edge end to end, in order, and names everything by the graph\'s own ids', () => {
    const drawing = drawingOf(
      {
        id: 'root',
        width: 400,
        height: 300,
        children: [{ id: 'z0', x: 0, y: 0, width: 400, height: 300, children: [{ id: 'c0', ...A }, { id: 'c1', ...B }] }],
        edges: [
          {
            id: 'l0',
            sources: ['c0'],
            targets: ['c1'],
            sections: [
              { id: 's1', startPoint: { x: 200, y: 20 }, endPoint: { x: 300, y: 220 }, bendPoints: [{ x: 200, y: 220 }], incomingSections: ['s0'] },
              { id: 's0', startPoint: { x: 100, y: 20 }, endPoint: { x: 200, y: 20 }, outgoingSections: ['s1'] },
            ],
          },
        ],
      },
      [
        { id: 'app', kind: 'app', zone: 'eu-1a' },
        { id: 'db', kind: 'database', zone: 'eu-1a' },
      ],
      [{ from: 'app', to: 'db' }],
    );
    expect(drawing.zones).toEqual([{ zone: 'eu-1a', count: 2, x: 0, y: 0, width: 400, height: 300 }]);
    expect(drawing.components.map((component) => [component.id, component.kind, component.x])).toEqual([['app', 'app', 0], ['db', 'database', 300]]);
    expect(drawing.links).toEqual([{ from: 'app', to: 'db', points: [{ x: 100, y: 20 }, { x: 200, y: 20 }, { x: 200, y: 20 }, { x: 200, y: 220 }, { x: 300, y: 220 }] }]);
    expect(drawing.routed).toBe(true);
  });

  it('draws an edge ELK did not route as a straight line from border to border', () => {
    const [start, end] = straight(A, B);
    expect(onBorder(start, A, 1e-9)).toBe(true);
    expect(onBorder(end, B, 1e-9)).toBe(true);
    // On the line between the centres: (50, 20) to (340, 220).
    expect((start.y - 20) / (start.x - 50)).toBeCloseTo(200 / 290);
    expect((end.y - 20) / (end.x - 50)).toBeCloseTo(200 / 290);
  });

  it('draws a link from a component to itself as a loop that starts and ends on its box', () => {
    const loop = straight(A, A);
    expect(loop.length).toBeGreaterThan(2);
    expect(onBorder(loop[0], A, 1e-9)).toBe(true);
    expect(onBorder(loop[loop.length - 1], A, 1e-9)).toBe(true);
  });
});
