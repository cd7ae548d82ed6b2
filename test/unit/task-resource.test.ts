import { toTaskResource, type TaskWorkflowView } from '../../src/tasks/task-resource';

const memo = { created_at: '2026-11-22T10:00:00.000Z', task_type: 'summarize' as const, request_hash: 'h' };

function view(overrides: Partial<TaskWorkflowView>): TaskWorkflowView {
  return { taskId: 'task_X', memo, status: 'RUNNING', historyLength: 2, pendingActivities: [], ...overrides };
}

describe('task status from a running workflow', () => {
  it('is queued before any worker has touched the workflow', () => {
    expect(toTaskResource(view({ historyLength: 2 })).status).toBe('queued');
  });

  it('is queued while the activity is scheduled but not picked up', () => {
    expect(toTaskResource(view({ historyLength: 5, pendingActivities: [{ started: false, attempt: 1 }] })).status).toBe('queued');
  });

  it('is running once a worker has started the activity', () => {
    const started = new Date('2026-11-22T10:00:01.000Z');
    const resource = toTaskResource(view({ historyLength: 5, pendingActivities: [{ started: true, attempt: 1, lastStartedAt: started }] }));
    expect(resource).toMatchObject({ status: 'running', updated_at: started.toISOString() });
  });

  it('stays running while a retry waits for its backoff', () => {
    expect(toTaskResource(view({ historyLength: 7, pendingActivities: [{ started: false, attempt: 2 }] })).status).toBe('running');
  });

  it('stays running between the activity closing and the workflow closing', () => {
    expect(toTaskResource(view({ historyLength: 8 })).status).toBe('running');
  });

  it('stays queued after a worker died during the first workflow task', () => {
    expect(toTaskResource(view({ historyLength: 5 })).status).toBe('queued');
  });
});

describe('task resource from a closed workflow', () => {
  const closedAt = new Date('2026-11-22T10:00:02.000Z');

  it('carries output.summary when succeeded', () => {
    const resource = toTaskResource(view({ status: 'COMPLETED', closedAt, outcome: { status: 'succeeded', output: { summary: 'S.' } } }));
    expect(resource).toEqual({
      id: 'task_X',
      task_type: 'summarize',
      status: 'succeeded',
      created_at: memo.created_at,
      updated_at: closedAt.toISOString(),
      output: { summary: 'S.' },
    });
  });

  it('carries error.code and error.message when failed', () => {
    const resource = toTaskResource(
      view({ status: 'COMPLETED', closedAt, outcome: { status: 'failed', error: { code: 'INPUT_REJECTED', message: 'no' } } }),
    );
    expect(resource).toMatchObject({ status: 'failed', error: { code: 'INPUT_REJECTED', message: 'no' } });
    expect(resource).not.toHaveProperty('output');
  });

  it.each([
    ['CANCELLED', 'CANCELED'],
    ['TERMINATED', 'CANCELED'],
    ['TIMED_OUT', 'TIMED_OUT'],
    ['FAILED', 'INTERNAL'],
  ] as const)('maps a workflow closed as %s to failed with %s', (status, code) => {
    expect(toTaskResource(view({ status, closedAt })).error?.code).toBe(code);
  });
});
