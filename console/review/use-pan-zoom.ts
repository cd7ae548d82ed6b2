import { useEffect, useRef, useState, type Dispatch, type StateUpdater } from 'preact/hooks';
import type { RefObject } from 'preact';
import { fitView, zoomAt, type Size, type View } from './pan-zoom';

const STEP = 1.25;
const KEY_PAN = 48;
const WHEEL_RATE = 0.0015;

export interface PanZoom {
  view: View;
  setView: Dispatch<StateUpdater<View>>;
  viewport: Size;
  zoomIn(): void;
  zoomOut(): void;
  fit(): void;
  handlers: {
    onPointerDown(event: PointerEvent): void;
    onPointerMove(event: PointerEvent): void;
    onPointerUp(event: PointerEvent): void;
    onPointerCancel(event: PointerEvent): void;
    onKeyDown(event: KeyboardEvent): void;
  };
}

/**
 * Drag to pan, wheel to zoom about the pointer, and the keyboard (arrows, + and -, 0 to fit) for
 * both, over `pan-zoom.ts`: our own, as d3-zoom would have d3-selection own the element Preact
 * renders. The whole drawing is fitted whenever it or the viewport changes size.
 */
export function usePanZoom(svg: RefObject<SVGSVGElement | null>, drawing: Size | undefined): PanZoom {
  const [viewport, setViewport] = useState<Size>({ width: 0, height: 0 });
  const [view, setView] = useState<View>({ x: 0, y: 0, k: 1 });
  const dragFrom = useRef<{ x: number; y: number } | undefined>(undefined);

  useEffect(() => {
    const element = svg.current;
    if (!element) return;
    const measure = () => setViewport({ width: element.clientWidth, height: element.clientHeight });
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    measure();
    return () => observer.disconnect();
  }, []);

  const fit = () => {
    if (drawing && viewport.width > 0) setView(fitView(drawing, viewport));
  };
  useEffect(fit, [drawing?.width, drawing?.height, viewport.width, viewport.height]);

  const zoomAbout = (factor: number, px: number, py: number) => {
    if (drawing) setView((current) => zoomAt(current, factor, px, py, drawing, viewport));
  };
  const zoomIn = () => zoomAbout(STEP, viewport.width / 2, viewport.height / 2);
  const zoomOut = () => zoomAbout(1 / STEP, viewport.width / 2, viewport.height / 2);

  // Added by hand: a wheel listener Preact adds may be passive, and this one must stop the page scrolling.
  useEffect(() => {
    const element = svg.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const bounds = element.getBoundingClientRect();
      zoomAbout(Math.exp(-event.deltaY * WHEEL_RATE), event.clientX - bounds.left, event.clientY - bounds.top);
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [drawing, viewport]);

  const panBy = (dx: number, dy: number) => setView((current) => ({ ...current, x: current.x + dx, y: current.y + dy }));
  const keys: Record<string, () => void> = {
    ArrowLeft: () => panBy(KEY_PAN, 0),
    ArrowRight: () => panBy(-KEY_PAN, 0),
    ArrowUp: () => panBy(0, KEY_PAN),
    ArrowDown: () => panBy(0, -KEY_PAN),
    '+': zoomIn,
    '=': zoomIn,
    '-': zoomOut,
    '0': fit,
  };

  return {
    view,
    setView,
    viewport,
    zoomIn,
    zoomOut,
    fit,
    handlers: {
      onPointerDown(event) {
        if (event.button !== 0) return;
        dragFrom.current = { x: event.clientX, y: event.clientY };
        (event.currentTarget as Element).setPointerCapture(event.pointerId);
      },
      onPointerMove(event) {
        const from = dragFrom.current;
        if (!from) return;
        dragFrom.current = { x: event.clientX, y: event.clientY };
        panBy(event.clientX - from.x, event.clientY - from.y);
      },
      onPointerUp() {
        dragFrom.current = undefined;
      },
      onPointerCancel() {
        dragFrom.current = undefined;
      },
      onKeyDown(event) {
        const action = keys[event.key];
        if (!action) return;
        event.preventDefault();
        action();
      },
    },
  };
}
