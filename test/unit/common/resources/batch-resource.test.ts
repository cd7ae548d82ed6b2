import type { AiBatchMemo } from '../../../../src/contract';
import { toBatchResource } from '../../../../src/common/resources/batch-resource';

const DAY_MS = 24 * 3600_000;
const ENDED_AT = '2026-11-26T23:54:47.569Z';
const memo: AiBatchMemo = {
  created_at: '2026-11-26T23:54:34.438Z',
  request_hash: 'hash',
  task_type: 'summarize',
  model: 'held',
  priority: 'low',
  total: 2,
  admitted: 2,
  outcome: { ended_at: ENDED_AT, counts: { total: 2, admitted: 2, succeeded: 2, failed: 0 } },
};

describe('toBatchResource', () => {
  it('reads an ended batch the same before and after its workflow closed, expiring a retention period after ended_at', () => {
    const beforeClose = toBatchResource({ batchId: 'batch_1', memo, status: 'RUNNING', retentionMs: 30 * DAY_MS });
    const afterClose = toBatchResource({ batchId: 'batch_1', memo, status: 'COMPLETED', closedAt: new Date(Date.parse(ENDED_AT) + 112), retentionMs: 30 * DAY_MS });
    expect(afterClose).toEqual(beforeClose);
    expect(afterClose).toMatchObject({ status: 'ended', ended_at: ENDED_AT, expires_at: '2026-12-26T23:54:47.569Z' });
  });

  it('counts as admitted every task visibility already sees while the memo waits for the admission to finish', () => {
    const running = { ...memo, total: 100, admitted: 20, outcome: undefined };
    const resource = toBatchResource({ batchId: 'batch_1', memo: running, status: 'RUNNING', retentionMs: DAY_MS, live: { running: 4, succeeded: 25, failed: 1 } });
    expect(resource.counts).toEqual({ total: 100, admitted: 30, succeeded: 25, failed: 1 });
    const behind = toBatchResource({ batchId: 'batch_1', memo: running, status: 'RUNNING', retentionMs: DAY_MS, live: { running: 2, succeeded: 3, failed: 0 } });
    expect(behind.counts.admitted).toBe(20);
  });
});
