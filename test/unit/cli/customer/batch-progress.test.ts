import { batchProgress } from '../../../../src/cli/customer/batch-progress';
import type { Batch, BatchCounts, BatchStatus } from '../../../../src/sdk';

function batch(status: BatchStatus, counts: BatchCounts): Batch {
  const at = '2025-01-01T00:00:00Z';
  return { id: 'batch_01', task_type: 'summarize', model: 'extractive', priority: 'low', status, counts, created_at: at, updated_at: at, ended_at: null, canceled_at: null, expires_at: null };
}

describe('batchProgress', () => {
  test('fills the bar by the share of items final and counts them with thousands separators', () => {
    expect(batchProgress(batch('in_progress', { total: 10_000, admitted: 6_000, succeeded: 5_100, failed: 20 }))).toBe(
      '[#####-----] 5,120/10,000 final: 5,100 succeeded, 20 failed',
    );
  });

  test('shows an empty bar before any item is final and a full one when all are', () => {
    expect(batchProgress(batch('in_progress', { total: 20, admitted: 0, succeeded: 0, failed: 0 }))).toBe('[----------] 0/20 final: 0 succeeded, 0 failed');
    expect(batchProgress(batch('ended', { total: 20, admitted: 20, succeeded: 19, failed: 1 }))).toBe('[##########] 20/20 final: 19 succeeded, 1 failed');
  });

  test('says when a cancel is under way', () => {
    expect(batchProgress(batch('canceling', { total: 4, admitted: 2, succeeded: 1, failed: 0 }))).toBe('[##--------] 1/4 final: 1 succeeded, 0 failed, canceling');
  });
});
