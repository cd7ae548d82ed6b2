import { enclosing, fitBox, fitView, focusOn, heightToFit, zoomAt } from '../../../../console/review/pan-zoom';

const VIEWPORT = { width: 800, height: 600 };

describe('panning and zooming the drawing', () => {
  it('fits a large drawing centred in the viewport, and leaves a small one at its natural size', () => {
    const large = fitView({ width: 3200, height: 1200 }, VIEWPORT);
    expect(large.k).toBeCloseTo((800 - 24) / 3200);
    expect(large.x).toBeCloseTo((800 - 3200 * large.k) / 2);
    expect(large.y).toBeCloseTo((600 - 1200 * large.k) / 2);
    expect(fitView({ width: 200, height: 100 }, VIEWPORT)).toEqual({ k: 1, x: 300, y: 250 });
  });

  it('sizes the viewport to the drawing fitted to its width, never below the least height', () => {
    expect(heightToFit({ width: 400, height: 150 }, 800, 200)).toBe(200);
    expect(heightToFit({ width: 400, height: 300 }, 800, 200)).toBe(324);
    expect(heightToFit({ width: 1552, height: 1000 }, 800, 200)).toBe(524);
  });

  it('zooms about the pointer: the drawing point under it stays under it', () => {
    const drawing = { width: 3200, height: 1200 };
    const before = { x: 40, y: 30, k: 0.5 };
    const after = zoomAt(before, 2, 300, 200, drawing, VIEWPORT);
    expect(after.k).toBe(1);
    expect((300 - after.x) / after.k).toBeCloseTo((300 - before.x) / before.k);
    expect((200 - after.y) / after.k).toBeCloseTo((200 - before.y) / before.k);
  });

  it('keeps the scale between half the fitted one and 3', () => {
    const drawing = { width: 3200, height: 1200 };
    const fitted = fitView(drawing, VIEWPORT);
    expect(zoomAt(fitted, 0.01, 0, 0, drawing, VIEWPORT).k).toBeCloseTo(fitted.k / 2);
    expect(zoomAt(fitted, 1000, 0, 0, drawing, VIEWPORT).k).toBe(3);
  });

  it('zooms to a box, centred, no closer than natural size', () => {
    const view = fitBox({ x: 1000, y: 500, width: 1552, height: 100 }, VIEWPORT);
    expect(view.k).toBeCloseTo((800 - 24) / 1552);
    expect(view.x + (1000 + 776) * view.k).toBeCloseTo(400);
    expect(view.y + (500 + 50) * view.k).toBeCloseTo(300);
    expect(fitBox({ x: 10, y: 10, width: 40, height: 20 }, VIEWPORT).k).toBe(1);
  });

  it('leaves the view alone for a selection readable on screen, and zooms to one that is off screen or too small to read', () => {
    const box = { x: 100, y: 100, width: 100, height: 40 };
    const readable = { x: 0, y: 0, k: 1 };
    expect(focusOn(readable, box, VIEWPORT)).toBe(readable);
    expect(focusOn({ x: -500, y: 0, k: 1 }, box, VIEWPORT)).toEqual(fitBox(box, VIEWPORT));
    expect(focusOn({ x: 0, y: 0, k: 0.2 }, box, VIEWPORT)).toEqual(fitBox(box, VIEWPORT));
  });

  it('encloses boxes in the smallest box holding them all', () => {
    expect(enclosing([])).toBeUndefined();
    expect(
      enclosing([
        { x: 10, y: 20, width: 30, height: 40 },
        { x: 100, y: 5, width: 10, height: 10 },
      ]),
    ).toEqual({ x: 10, y: 5, width: 100, height: 55 });
  });
});
