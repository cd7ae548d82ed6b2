import type { AiBatchMemo, BatchCounts, BatchTaskCounts } from '../../contract';
import type { Batch } from '../../contract/wire/batch';
import { expiresAt } from './expiry';
import type { WorkflowStatusName } from './task-resource';

export interface BatchWorkflowView {
  batchId: string;
  memo: AiBatchMemo;
  status: WorkflowStatusName;
  closedAt?: Date;
  retentionMs: number;
  /** While the batch runs, its tasks as visibility counts them now. */
  live?: BatchTaskCounts;
}

export function toBatchResource(view: BatchWorkflowView): Batch {
  const { memo } = view;
  const base = {
    id: view.batchId,
    task_type: memo.task_type,
    model: memo.model,
    priority: memo.priority,
    ...(memo.deadline !== undefined ? { deadline: memo.deadline } : {}),
    created_at: memo.created_at,
    canceled_at: memo.canceled_at ?? null,
  };
  if (memo.outcome) {
    // From ended_at, not the close time: the outcome is in the memo a moment before the workflow
    // closes, and an ended batch must read the same before and after (its retention starts at the
    // close, a few milliseconds later).
    const endedAt = memo.outcome.ended_at;
    return { ...base, status: 'ended', counts: memo.outcome.counts, updated_at: endedAt, ended_at: endedAt, expires_at: expiresAt(new Date(endedAt), view.retentionMs) };
  }
  const live = view.live ?? { running: 0, succeeded: 0, failed: 0 };
  // The memo learns of an admission once all its starts are done; visibility sees each task as it
  // starts. Never fewer admitted than tasks counted, so no count reads above `admitted`.
  const admitted = Math.min(memo.total, Math.max(memo.admitted, live.running + live.succeeded + live.failed));
  const counts: BatchCounts = { total: memo.total, admitted, succeeded: live.succeeded, failed: live.failed };
  // A batch workflow closed without its outcome (an operator terminated it) ends as its tasks stand.
  if (view.status !== 'RUNNING') {
    const endedAt = (view.closedAt ?? new Date(memo.created_at)).toISOString();
    return { ...base, status: 'ended', counts, updated_at: endedAt, ended_at: endedAt, expires_at: expiresAt(view.closedAt, view.retentionMs) };
  }
  return { ...base, status: memo.canceled_at ? 'canceling' : 'in_progress', counts, updated_at: memo.canceled_at ?? memo.created_at, ended_at: null, expires_at: null };
}
