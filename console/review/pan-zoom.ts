import type { Box } from './drawing';

/** Screen = drawing × k + (x, y). */
export interface View {
  x: number;
  y: number;
  k: number;
}

export interface Size {
  width: number;
  height: number;
}

const MAX_SCALE = 3;
/** Below the scale that fits the whole drawing there is nothing more to see. */
const BELOW_FIT = 0.5;
const MARGIN = 12;
/** 12 px labels at 9 px. */
const READABLE_SCALE = 0.75;

/** `box` (in drawing units) centred and as large as fits, but never enlarged: a small graph stays at its natural size. */
export function fitBox(box: Box, viewport: Size): View {
  const k = Math.min(1, (viewport.width - 2 * MARGIN) / box.width, (viewport.height - 2 * MARGIN) / box.height);
  return { k, x: viewport.width / 2 - (box.x + box.width / 2) * k, y: viewport.height / 2 - (box.y + box.height / 2) * k };
}

export function fitView(drawing: Size, viewport: Size): View {
  return fitBox({ x: 0, y: 0, ...drawing }, viewport);
}

/**
 * How tall a viewport `width` wide must be to show the whole drawing fitted to that width, and no
 * shorter than `least`: a small graph gets a small figure rather than a tall empty one.
 */
export function heightToFit(drawing: Size, width: number, least: number): number {
  const k = Math.min(1, (width - 2 * MARGIN) / drawing.width);
  return Math.max(least, Math.ceil(drawing.height * k + 2 * MARGIN));
}

/** Scaled by `factor` about the screen point (px, py), which stays where it is. */
export function zoomAt(view: View, factor: number, px: number, py: number, drawing: Size, viewport: Size): View {
  const least = Math.min(1, fitView(drawing, viewport).k) * BELOW_FIT;
  const k = Math.min(MAX_SCALE, Math.max(least, view.k * factor));
  return { k, x: px - ((px - view.x) * k) / view.k, y: py - ((py - view.y) * k) / view.k };
}

/** Unchanged when `box` is wholly on screen at a readable scale; otherwise zoomed to it. */
export function focusOn(view: View, box: Box, viewport: Size): View {
  const [left, top] = [box.x * view.k + view.x, box.y * view.k + view.y];
  const onScreen = left >= 0 && top >= 0 && left + box.width * view.k <= viewport.width && top + box.height * view.k <= viewport.height;
  return onScreen && view.k >= READABLE_SCALE ? view : fitBox(box, viewport);
}

/** The smallest box holding all of `boxes`, or undefined for none. */
export function enclosing(boxes: readonly Box[]): Box | undefined {
  if (boxes.length === 0) return undefined;
  const left = Math.min(...boxes.map((box) => box.x));
  const top = Math.min(...boxes.map((box) => box.y));
  const right = Math.max(...boxes.map((box) => box.x + box.width));
  const bottom = Math.max(...boxes.map((box) => box.y + box.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}
