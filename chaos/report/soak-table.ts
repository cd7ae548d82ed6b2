import { markdownTable } from './markdown-table';
import type { MeasureVerdict, SoakMeasure, SoakMinute } from './soak-measures';

/** The soak's figures as Markdown (readable in a terminal, pasteable into docs/reliability.md): one row per minute, then each figure's second and last quarter. */
export function formatSoakTable(minutes: readonly SoakMinute[], verdicts: readonly MeasureVerdict[]): string {
  const measures = verdicts.map(({ measure }) => measure);
  const header = ['min', 'tasks final', ...measures.map(title)];
  const rows = minutes.map((minute) => [
    String(minute.minute),
    String(minute.tasksFinal),
    ...measures.map((measure) => {
      const sample = minute.samples.get(measure.process);
      const value = sample === undefined ? undefined : measure.read(sample);
      return value === undefined ? '–' : value.toFixed(measure.decimals);
    }),
  ]);
  const quarters = verdicts.map(({ measure, verdict }) =>
    verdict === undefined
      ? [title(measure), '–', '–', '–', 'too short to judge']
      : [
          title(measure),
          verdict.secondQuarterMean.toFixed(measure.decimals + 1),
          verdict.lastQuarterMean.toFixed(measure.decimals + 1),
          `${signed(((verdict.lastQuarterMean - verdict.secondQuarterMean) / Math.max(verdict.secondQuarterMean, Number.EPSILON)) * 100)} %`,
          verdict.grew ? `GREW (more than ${measure.allowance.relative * 100} % and ${measure.allowance.absolute}${measure.unit ? ` ${measure.unit}` : ''})` : 'steady',
        ],
  );
  return [markdownTable(header, rows), '', markdownTable(['figure', '2nd quarter mean', 'last quarter mean', 'change', 'verdict'], quarters)].join('\n');
}

function title(measure: SoakMeasure): string {
  return `${measure.process} ${measure.label}${measure.unit ? ` (${measure.unit})` : ''}`;
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;
}
