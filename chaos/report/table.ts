import type { ScenarioResult } from './scenario-result';

const COLUMNS = ['scenario', 'tasks', 'succeeded', 'lost', 'duplicated', '5xx', 'recovery time'] as const;

/** The results as a Markdown table (readable in a terminal, pasteable into docs/reliability.md), then the notes. */
export function formatTable(results: readonly ScenarioResult[]): string {
  const rows = results.map((result) => [
    result.scenario,
    String(result.tasks),
    String(result.succeeded),
    String(result.lost),
    String(result.duplicated),
    String(result.serverErrors),
    result.recoveryMs === undefined ? '—' : `${(result.recoveryMs / 1000).toFixed(1)} s`,
  ]);
  const widths = COLUMNS.map((column, index) => Math.max(column.length, ...rows.map((row) => row[index].length)));
  const line = (cells: readonly string[]) => `| ${cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]) : cell.padStart(widths[index]))).join(' | ')} |`;
  const rule = `|${widths.map((width, index) => (index === 0 ? `-${'-'.repeat(width)}-` : `${'-'.repeat(width + 1)}:`)).join('|')}|`;
  const notes = results.flatMap((result) => result.notes.map((note) => `- ${result.scenario}: ${note}`));
  return [line(COLUMNS), rule, ...rows.map(line), '', ...notes].join('\n');
}
