import type { Batch } from '../../sdk';

const BAR_WIDTH = 10;
const COUNT = new Intl.NumberFormat('en-US');

/** `[#####-----] 5,120/10,000 final: 5,100 succeeded, 20 failed`, the bar filled by the share of items final. */
export function batchProgress({ status, counts }: Batch): string {
  const final = counts.succeeded + counts.failed;
  const filled = Math.min(BAR_WIDTH, Math.floor((final / counts.total) * BAR_WIDTH));
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
  const canceling = status === 'canceling' ? ', canceling' : '';
  return `${bar} ${COUNT.format(final)}/${COUNT.format(counts.total)} final: ${COUNT.format(counts.succeeded)} succeeded, ${COUNT.format(counts.failed)} failed${canceling}`;
}
