import { toTaskResource, type TaskWorkflowView } from '../../../../src/common/resources/task-resource';

const memo = { created_at: '2026-11-22T10:00:00.000Z', task_type: 'summarize' as const, request_hash: 'h' };

function view(overrides: Partial<TaskWorkflowView>): TaskWorkflowView {
  return { taskId: 'task_X', memo, status: 'RUNNING', retentionMs: 30 * 86_400_000, historyLength: 2, pendingActivities: [], ...overrides };
}

describe('task status from a running workflow', () => {
  it('is queued before any worker has touched the workflow', () => {
    expect(toTaskResource(view({ historyLength: 2, pendingWorkflowTask: { started: false, attempt: 1 } })).status).toBe('queued');
  });

  it('is running once a worker has started the workflow task that summarises, since then', () => {
    const started = new Date('2026-11-22T10:00:01.000Z');
    const resource = toTaskResource(view({ historyLength: 3, pendingWorkflowTask: { started: true, attempt: 1, startedAt: started } }));
    expect(resource).toMatchObject({ status: 'running', updated_at: started.toISOString() });
  });

  it('stays running while that workflow task is retried after a worker died in it', () => {
    expect(toTaskResource(view({ historyLength: 4, pendingWorkflowTask: { started: false, attempt: 2 } })).status).toBe('running');
  });

  it('stays running between two workflow tasks of a long summary', () => {
    expect(toTaskResource(view({ historyLength: 5, pendingWorkflowTask: { started: false, attempt: 1 } })).status).toBe('running');
  });

  it('stays running until the workflow closes', () => {
    expect(toTaskResource(view({ historyLength: 8 })).status).toBe('running');
  });

  it('is running while a task from before the local summary waits for its activity, as it was once its workflow task started', () => {
    const started = new Date('2026-11-22T10:00:03.000Z');
    const resource = toTaskResource(view({ historyLength: 5, pendingActivities: [{ started: true, attempt: 1, lastStartedAt: started }] }));
    expect(resource).toMatchObject({ status: 'running', updated_at: started.toISOString() });
    expect(toTaskResource(view({ historyLength: 5, pendingActivities: [{ started: false, attempt: 1 }] })).status).toBe('running');
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
      expires_at: '2026-12-22T10:00:02.000Z',
      output: { summary: 'S.' },
    });
  });

  it('expires the retention period after it closed, and never while it runs', () => {
    expect(toTaskResource(view({ status: 'TIMED_OUT', closedAt, retentionMs: 86_400_000 })).expires_at).toBe('2026-11-23T10:00:02.000Z');
    expect(toTaskResource(view({ historyLength: 5 })).expires_at).toBeNull();
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
    expect(toTaskResource(view({ status, closedAt }))).toMatchObject({ status: 'failed', error: { code } });
  });
});
