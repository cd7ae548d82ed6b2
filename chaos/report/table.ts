import { markdownTable } from './markdown-table';
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
  const notes = results.flatMap((result) => result.notes.map((note) => `- ${result.scenario}: ${note}`));
  return [markdownTable(COLUMNS, rows), '', ...notes].join('\n');
}
