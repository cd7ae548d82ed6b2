import * as fs from 'node:fs';
import * as path from 'node:path';
import type { temporal } from '@temporalio/proto';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';

const RECORDING = process.env.ASSAY_RECORD_HISTORIES === '1';

/**
 * With ASSAY_RECORD_HISTORIES=1, writes a history the test just produced into
 * test/replay/histories/, where the replay tests pick it up (docs/testing.md, "Replay tests").
 */
export function recordHistoryIfAsked(history: temporal.api.history.v1.IHistory, name: string): void {
  if (!RECORDING) return;
  const file = path.resolve(__dirname, '../replay/histories', `${name}.json`);
  fs.writeFileSync(file, `${JSON.stringify(JSON.parse(historyToJSON(history)), null, 2)}\n`);
}
