import { ID_KINDS } from '../../../../src/common/ids/id-kinds';
import { isTaskId, newTaskId, TASK_ID_PATTERN, taskIdForIdempotencyKey, taskIdFromWorkflowId } from '../../../../src/common/ids/task-ids';
import { taskWorkflowId } from '../../../../src/contract';

describe('task ids', () => {
  it('are the task kind of id', () => {
    expect([newTaskId, taskIdForIdempotencyKey, isTaskId, TASK_ID_PATTERN]).toEqual([ID_KINDS.task.newId, ID_KINDS.task.idForIdempotencyKey, ID_KINDS.task.isId, ID_KINDS.task.pattern]);
  });

  it('puts the organisation in the workflow id', () => {
    expect(taskWorkflowId('acme', 'task_1')).toBe('ai-task/acme/task_1');
  });

  it('reads the task id back from the workflow id, and nothing from another workflow', () => {
    const id = newTaskId();
    expect(taskIdFromWorkflowId(taskWorkflowId('acme', id))).toBe(id);
    expect(taskIdFromWorkflowId(`assessment/acme/${id}`)).toBeUndefined();
  });
});
