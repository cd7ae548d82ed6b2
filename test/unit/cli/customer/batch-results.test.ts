import { BatchItemsFailedError, checkEveryItemSucceeded, inItemOrder, resultLine } from '../../../../src/cli/customer/batch-results';
import type { Batch, BatchItem, Task } from '../../../../src/sdk';
import { task } from '../../../support/client-fake-fetch';

function itemTask(key: string, status: 'running' | 'succeeded' | 'failed'): Task {
  return { ...task(status, `task_${key}`), batch_id: 'batch_01', item_key: key } as Task;
}

function endedBatch(total: number): Batch {
  const at = '2025-01-01T00:00:00Z';
  return { id: 'batch_01', task_type: 'summarize', model: 'extractive', priority: 'low', status: 'ended', counts: { total, admitted: total, succeeded: 0, failed: 0 }, created_at: at, updated_at: at, ended_at: at, canceled_at: null, expires_at: null };
}

const items = (...keys: string[]): BatchItem[] => keys.map((key) => ({ key, input: { text: `Text of ${key}.` } }));

describe('resultLine', () => {
  test('a succeeded task is its key, task id and summary', () => {
    expect(resultLine(itemTask('doc-1', 'succeeded'))).toEqual({ key: 'doc-1', task_id: 'task_doc-1', status: 'succeeded', summary: 'A short summary.' });
  });

  test('a failed task is its key, task id and error code and message', () => {
    expect(resultLine(itemTask('doc-2', 'failed'))).toEqual({
      key: 'doc-2',
      task_id: 'task_doc-2',
      status: 'failed',
      error: { code: 'INPUT_REJECTED', message: 'The provider rejected the input' },
    });
  });

  test('a task not final is its key, task id and status', () => {
    expect(resultLine(itemTask('doc-3', 'running'))).toEqual({ key: 'doc-3', task_id: 'task_doc-3', status: 'running' });
  });
});

describe('inItemOrder', () => {
  test('orders the tasks as their items were, whatever order the list gave', () => {
    const tasks = [itemTask('c', 'succeeded'), itemTask('a', 'failed'), itemTask('b', 'succeeded')];

    expect(inItemOrder(tasks, items('a', 'b', 'c')).map((listed) => listed.item_key)).toEqual(['a', 'b', 'c']);
  });
});

describe('checkEveryItemSucceeded', () => {
  test('passes when every item succeeded', () => {
    const lines = [itemTask('a', 'succeeded'), itemTask('b', 'succeeded')].map(resultLine);

    expect(() => checkEveryItemSucceeded(endedBatch(2), lines)).not.toThrow();
  });

  test('throws BatchItemsFailedError counting the items that failed and those that never ran', () => {
    const lines = [itemTask('a', 'succeeded'), itemTask('b', 'failed')].map(resultLine);
    const check = () => checkEveryItemSucceeded(endedBatch(5), lines);

    expect(check).toThrow(BatchItemsFailedError);
    expect(check).toThrow('Batch batch_01: 1 of 5 items succeeded, 1 failed, 3 never ran; each task is on stdout');
  });
});
