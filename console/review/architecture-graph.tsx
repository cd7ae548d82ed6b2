import { useEffect, useRef, useState } from 'preact/hooks';
import type { Finding, NetworkComponent, NetworkLink } from '../../src/sdk';
import { layoutGraph, type GraphLayout } from './graph-layout';
import { SEVERITY_COLOURS, componentMarks, type ComponentMark } from './severity';

interface Props {
  components: NetworkComponent[];
  links: NetworkLink[];
  findings: Finding[];
  /** Components of the finding the reviewer selected: drawn with a ring. */
  selected: readonly string[];
}

const LABEL_MIN_CELL = 24;

/**
 * The architecture on a canvas: a canvas draws 2,000 components and 10,000 links in one pass,
 * where as many DOM nodes would not. What it shows is also text beside it (findings, zones).
 */
export function ArchitectureGraph({ components, links, findings, selected }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawMs, setDrawMs] = useState<number | undefined>(undefined);
  /** Milliseconds from the start of the page's navigation to the end of the first draw. */
  const [firstDrawnAt, setFirstDrawnAt] = useState<number | undefined>(undefined);
  const [width, setWidth] = useState(0);

  useEffect(() => {
    const element = canvas.current?.parentElement;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    setWidth(element.clientWidth);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const element = canvas.current;
    if (!element || width === 0) return;
    const started = performance.now();
    const layout = layoutGraph(components, links, width);
    draw(element, layout, componentMarks(findings), new Set(selected));
    const finished = performance.now();
    setDrawMs(Math.round(finished - started));
    setFirstDrawnAt((earlier) => earlier ?? Math.round(finished));
  }, [components, links, findings, selected, width]);

  const zones = new Set(components.map((component) => component.zone)).size;
  return (
    <figure class="graph">
      <canvas
        ref={canvas}
        role="img"
        aria-label={`Architecture: ${components.length} components in ${zones} zones, ${links.length} links; components named by findings are coloured by severity`}
        data-draw-ms={drawMs}
        data-first-drawn-at-ms={firstDrawnAt}
      />
      <figcaption>
        {components.length} components in {zones} zones, {links.length} links{drawMs === undefined ? '' : `; drawn in ${drawMs} ms`}. Rings mark single points of failure.
      </figcaption>
    </figure>
  );
}

function draw(canvas: HTMLCanvasElement, layout: GraphLayout, marks: Map<string, ComponentMark>, selected: Set<string>): void {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(layout.width * ratio);
  canvas.height = Math.round(layout.height * ratio);
  canvas.style.width = `${layout.width}px`;
  canvas.style.height = `${layout.height}px`;
  const context = canvas.getContext('2d');
  if (!context) return;
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.clearRect(0, 0, layout.width, layout.height);

  context.font = '12px system-ui, sans-serif';
  for (const zone of layout.zones) {
    context.fillStyle = '#f3f4f6';
    context.strokeStyle = '#d1d5db';
    context.fillRect(zone.x, zone.y, zone.width, zone.height);
    context.strokeRect(zone.x + 0.5, zone.y + 0.5, zone.width - 1, zone.height - 1);
    context.fillStyle = '#111827';
    context.fillText(`${zone.zone} (${zone.count})`, zone.x + 6, zone.y + 15);
  }

  // Every link in one path: one stroke call whatever their number.
  context.beginPath();
  for (const link of layout.links) {
    const from = layout.positions.get(link.from);
    const to = layout.positions.get(link.to);
    if (!from || !to) continue;
    context.moveTo(from.x, from.y);
    context.lineTo(to.x, to.y);
  }
  context.strokeStyle = layout.links.length > 500 ? 'rgba(55, 65, 81, 0.08)' : 'rgba(55, 65, 81, 0.45)';
  context.lineWidth = 1;
  context.stroke();

  const radius = Math.max(2, layout.cell * 0.3);
  for (const [id, position] of layout.positions) {
    const mark = marks.get(id);
    context.beginPath();
    context.arc(position.x, position.y, mark ? radius * 1.25 : radius, 0, Math.PI * 2);
    context.fillStyle = mark ? SEVERITY_COLOURS[mark.severity] : '#9ca3af';
    context.fill();
    if (mark?.singlePointOfFailure || selected.has(id)) {
      context.lineWidth = selected.has(id) ? 3 : 2;
      context.strokeStyle = selected.has(id) ? '#111827' : SEVERITY_COLOURS[mark?.severity ?? 'info'];
      context.beginPath();
      context.arc(position.x, position.y, radius * 1.25 + 3, 0, Math.PI * 2);
      context.stroke();
    }
    if (layout.cell >= LABEL_MIN_CELL) {
      context.fillStyle = '#111827';
      context.font = '10px system-ui, sans-serif';
      context.fillText(id.length > 10 ? `${id.slice(0, 9)}…` : id, position.x - layout.cell / 2 + 2, position.y + radius + 11);
    }
  }
}
