import { isTaskId, newTaskId, taskIdForIdempotencyKey } from '../../../../src/common/ids/task-ids';
import { taskWorkflowId } from '../../../../src/contract';

describe('task ids', () => {
  it('makes new ids of the form task_<ULID>', () => {
    expect(isTaskId(newTaskId())).toBe(true);
  });

  it('derives the same id for the same organisation and Idempotency-Key', () => {
    expect(taskIdForIdempotencyKey('acme', 'k-1')).toBe(taskIdForIdempotencyKey('acme', 'k-1'));
  });

  it('derives different ids for other organisations or keys', () => {
    const id = taskIdForIdempotencyKey('acme', 'k-1');
    expect(taskIdForIdempotencyKey('globex', 'k-1')).not.toBe(id);
    expect(taskIdForIdempotencyKey('acme', 'k-2')).not.toBe(id);
  });

  it('gives derived ids the task_<ULID> shape', () => {
    for (const key of ['a', 'b', 'c', '550e8400-e29b-41d4-a716-446655440000']) {
      expect(isTaskId(taskIdForIdempotencyKey('acme', key))).toBe(true);
    }
  });

  it.each(['', 'task_', 'task_01JAAAAAAAAAAAAAAAAAAAAAA', 'task_81JAAAAAAAAAAAAAAAAAAAAAAA', 'task_01JAAAAAAAAAAAAAAAAAAAAAAI', 'asmt_01JAAAAAAAAAAAAAAAAAAAAAAA'])(
    'rejects %p as a task id',
    (value) => {
      expect(isTaskId(value)).toBe(false);
    },
  );

  it('puts the organisation in the workflow id', () => {
    expect(taskWorkflowId('acme', 'task_1')).toBe('ai-task/acme/task_1');
  });
});
