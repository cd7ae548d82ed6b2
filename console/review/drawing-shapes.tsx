import type { DrawnComponent, DrawnLink, Drawing } from './drawing';
import { shortened } from './graph-layout';
import { SEVERITY_COLOURS, type ComponentMark } from './severity';

const INK = '#111827';
const MUTED = '#4b5563';
const UNMARKED = '#9ca3af';
const SELECTED_FILL = '#fde68a';
const LINK = '#6b7280';
/** Past this many links, each one faint, so that where they bunch reads darker, as on a heat map. */
const MANY_LINKS = 500;
/** The font graph-layout.ts sizes boxes for. */
const MONOSPACE = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace';

interface Props {
  drawing: Drawing;
  marks: Map<string, ComponentMark>;
  selected: ReadonlySet<string>;
}

/** Zones, then links, then components on top; the selected finding's links are drawn last and dark. */
export function DrawingShapes({ drawing, marks, selected }: Props) {
  const touchesSelection = (link: DrawnLink) => selected.has(link.from) || selected.has(link.to);
  return (
    <>
      <defs>
        <Arrowhead id="arrow" colour={LINK} />
        <Arrowhead id="arrow-selected" colour={INK} />
      </defs>
      {drawing.zones.map((zone) => (
        <g key={zone.zone} class="zone" data-zone={zone.zone}>
          <rect x={zone.x} y={zone.y} width={zone.width} height={zone.height} rx={8} fill="#f3f4f6" stroke="#d1d5db" />
          <text x={zone.x + 10} y={zone.y + 18} font-size={13} font-weight={600} fill={INK}>
            {zone.zone} ({zone.count})
          </text>
        </g>
      ))}
      <g class="links" opacity={(drawing.links.length > MANY_LINKS ? 0.2 : 1) * (selected.size > 0 ? 0.35 : 1)}>
        {drawing.links.filter((link) => !touchesSelection(link)).map((link, index) => <Link key={index} link={link} selected={false} />)}
      </g>
      <g class="links">
        {drawing.links.filter(touchesSelection).map((link, index) => <Link key={index} link={link} selected />)}
      </g>
      {drawing.components.map((component) => (
        <Component key={component.id} component={component} mark={marks.get(component.id)} selected={selected.has(component.id)} />
      ))}
    </>
  );
}

function Arrowhead({ id, colour }: { id: string; colour: string }) {
  return (
    <marker id={id} viewBox="0 0 8 8" refX={8} refY={4} markerWidth={7} markerHeight={7} orient="auto">
      <path d="M0,0 L8,4 L0,8 z" fill={colour} />
    </marker>
  );
}

function Link({ link, selected }: { link: DrawnLink; selected: boolean }) {
  return (
    <polyline
      class="link"
      data-from={link.from}
      data-to={link.to}
      points={link.points.map((point) => `${point.x},${point.y}`).join(' ')}
      fill="none"
      stroke={selected ? INK : LINK}
      stroke-width={selected ? 2 : 1}
      marker-end={`url(#${selected ? 'arrow-selected' : 'arrow'})`}
    />
  );
}

function Component({ component, mark, selected }: { component: DrawnComponent; mark?: ComponentMark; selected: boolean }) {
  const colour = mark ? SEVERITY_COLOURS[mark.severity] : UNMARKED;
  const { x, y, width, height } = component;
  const named = mark ? `: worst finding ${mark.severity}${mark.singlePointOfFailure ? ', a single point of failure' : ''}` : '';
  return (
    <g class="component" data-component-id={component.id} data-selected={selected ? 'true' : undefined}>
      <title>{`${component.id} (${component.kind})${named}`}</title>
      {mark?.singlePointOfFailure && <rect x={x - 4} y={y - 4} width={width + 8} height={height + 8} rx={7} fill="none" stroke={colour} stroke-width={2} stroke-dasharray="5 3" />}
      <rect class="box" x={x} y={y} width={width} height={height} rx={4} fill={selected ? SELECTED_FILL : '#fff'} stroke={selected ? INK : colour} stroke-width={selected ? 3 : mark ? 2 : 1} />
      {mark && <rect x={x + 1} y={y + 1} width={5} height={height - 2} fill={colour} />}
      <text x={x + 10} y={y + 16} font-family={MONOSPACE} font-size={12} fill={INK}>
        {shortened(component.id)}
      </text>
      <text x={x + 10} y={y + 31} font-family={MONOSPACE} font-size={10} fill={MUTED}>
        {shortened(component.kind)}
      </text>
    </g>
  );
}
