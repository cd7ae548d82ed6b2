import * as fs from 'node:fs';

/**
 * With ASSAY_FIGURES_FILE set, appends what a test measured (one JSON line) to that file, for the
 * figures a note or docs/benchmarks.md quotes; without it, nothing. Tests never assert times.
 */
export function reportFiguresIfAsked(name: string, figures: Record<string, unknown>): void {
  const file = process.env.ASSAY_FIGURES_FILE;
  if (file) fs.appendFileSync(file, `${JSON.stringify({ name, at: new Date().toISOString(), ...figures })}\n`);
}
