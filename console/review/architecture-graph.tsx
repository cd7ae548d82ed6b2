import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Finding, NetworkComponent, NetworkLink } from '../../src/sdk';
import { DrawingShapes } from './drawing-shapes';
import { ROUTED_LIMITS } from './graph-layout';
import { enclosing, focusOn, heightToFit } from './pan-zoom';
import { componentMarks } from './severity';
import { useLayout } from './use-layout';
import { usePanZoom } from './use-pan-zoom';

/** A small graph's figure is no shorter than this; the stylesheet caps a large one's at most of the screen. */
const LEAST_HEIGHT = 200;

interface Props {
  components: NetworkComponent[];
  links: NetworkLink[];
  findings: Finding[];
  /** Components of the finding the reviewer selected: drawn highlighted, and zoomed to unless already readable on screen. */
  selected: readonly string[];
}

/**
 * The architecture laid out by ELK: zones as boxes holding their components, links routed
 * between them. Everything it shows is also text beside it (findings, zones), so the drawing is
 * one image with a summary for a screen reader.
 */
export function ArchitectureGraph({ components, links, findings, selected }: Props) {
  const svg = useRef<SVGSVGElement>(null);
  const layout = useLayout(components, links);
  const drawing = layout.state === 'drawn' ? layout.drawing : undefined;
  const panZoom = usePanZoom(svg, drawing);
  /** Milliseconds from the start of the page's navigation to the first drawing on screen. */
  const [firstDrawnAt, setFirstDrawnAt] = useState<number | undefined>(undefined);
  const marks = useMemo(() => componentMarks(findings), [findings]);
  const selection = useMemo(() => new Set(selected), [selected]);
  // One tree for the shapes, so a pan or zoom, which re-renders only the transform, re-draws none of them.
  const shapes = useMemo(() => drawing && <DrawingShapes drawing={drawing} marks={marks} selected={selection} />, [drawing, marks, selection]);

  useEffect(() => {
    if (drawing) setFirstDrawnAt((earlier) => earlier ?? Math.round(performance.now()));
  }, [drawing]);

  useEffect(() => {
    const box = enclosing(drawing?.components.filter((component) => selection.has(component.id)) ?? []);
    if (box) panZoom.setView((view) => focusOn(view, box, panZoom.viewport));
  }, [drawing, selection]);

  const zones = new Set(components.map((component) => component.zone)).size;
  const { view, viewport } = panZoom;
  const height = drawing && viewport.width > 0 ? heightToFit(drawing, viewport.width, LEAST_HEIGHT) : undefined;
  return (
    <figure class="graph">
      <div class="graph-tools" role="toolbar" aria-label="Drawing">
        <button type="button" class="secondary" aria-label="Zoom in" onClick={panZoom.zoomIn} disabled={!drawing}>+</button>
        <button type="button" class="secondary" aria-label="Zoom out" onClick={panZoom.zoomOut} disabled={!drawing}>−</button>
        <button type="button" class="secondary" onClick={panZoom.fit} disabled={!drawing}>Fit</button>
        <span class="muted">Drag to pan, wheel to zoom; with the drawing focused, arrow keys, + and -, 0 to fit.</span>
      </div>
      {layout.state === 'laying-out' && <p role="status" class="graph-status">Laying out {components.length} components…</p>}
      {layout.state === 'failed' && <p role="alert" class="error">The drawing could not be laid out: {layout.error}</p>}
      <svg
        ref={svg}
        role="img"
        tabIndex={0}
        aria-label={`Architecture: ${components.length} components in ${zones} zones, ${links.length} links; components named by findings are outlined in their worst severity's colour`}
        data-state={layout.state}
        data-layout-ms={layout.state === 'drawn' ? layout.layoutMs : undefined}
        data-first-drawn-at-ms={firstDrawnAt}
        style={height === undefined ? undefined : { height: `${height}px` }}
        {...panZoom.handlers}
      >
        <g class="view" transform={`translate(${view.x} ${view.y}) scale(${view.k})`}>
          {shapes}
        </g>
      </svg>
      <figcaption>
        {components.length} components in {zones} zones, {links.length} links
        {layout.state === 'drawn' ? `; laid out in ${layout.layoutMs} ms` : ''}
        {drawing && !drawing.routed ? `; too large to route (over ${ROUTED_LIMITS.components} components or ${ROUTED_LIMITS.links} links), so components are packed by zone and links drawn straight` : ''}. Dashed outlines mark single points of failure.
      </figcaption>
    </figure>
  );
}
