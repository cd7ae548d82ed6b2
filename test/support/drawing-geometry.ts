/** Geometry checks of a drawn graph, shared by the layout's unit test and the browser test of what Chromium rendered. */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Polyline {
  from: string;
  to: string;
  points: { x: number; y: number }[];
}

/** Every pair of boxes whose insides overlap (touching edges is not overlapping), as "a / b". */
export function overlappingPairs(boxes: ReadonlyMap<string, Rect>): string[] {
  const entries = [...boxes].sort(([, a], [, b]) => a.x - b.x);
  const overlaps: string[] = [];
  entries.forEach(([name, box], index) => {
    for (const [other, candidate] of entries.slice(index + 1)) {
      if (candidate.x >= box.x + box.width) break;
      if (candidate.y < box.y + box.height && box.y < candidate.y + candidate.height) overlaps.push(`${name} / ${other}`);
    }
  });
  return overlaps;
}

/** Whether the point lies on the box's outline, within `tolerance`. */
export function onBorder(point: { x: number; y: number }, box: Rect, tolerance: number): boolean {
  const within = point.x >= box.x - tolerance && point.x <= box.x + box.width + tolerance && point.y >= box.y - tolerance && point.y <= box.y + box.height + tolerance;
  const nearSide = Math.min(Math.abs(point.x - box.x), Math.abs(point.x - box.x - box.width), Math.abs(point.y - box.y), Math.abs(point.y - box.y - box.height)) <= tolerance;
  return within && nearSide;
}

/** Each link whose first point is not on its source's box or whose last point is not on its target's, described. */
export function linksOffTheirEnds(links: readonly Polyline[], boxes: ReadonlyMap<string, Rect>, tolerance: number): string[] {
  const off: string[] = [];
  for (const link of links) {
    const [first, last] = [link.points[0], link.points[link.points.length - 1]];
    const [source, target] = [boxes.get(link.from), boxes.get(link.to)];
    if (!source || !onBorder(first, source, tolerance)) off.push(`${link.from} → ${link.to} starts at (${first.x}, ${first.y}), not on ${link.from}`);
    if (!target || !onBorder(last, target, tolerance)) off.push(`${link.from} → ${link.to} ends at (${last.x}, ${last.y}), not on ${link.to}`);
  }
  return off;
}
