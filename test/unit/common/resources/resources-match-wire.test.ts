import { toAssessmentResource } from '../../../../src/common/resources/assessment-resource';
import { assessmentResourceSchema, taskResourceSchema } from '../../../../src/contract/wire';
import { toTaskResource, type TaskWorkflowView } from '../../../../src/common/resources/task-resource';

const CREATED_AT = '2025-06-02T09:15:27.114Z';
const memo = { created_at: CREATED_AT, task_type: 'summarize' as const, request_hash: 'ab' };

function view(overrides: Partial<TaskWorkflowView>): TaskWorkflowView {
  return { taskId: 'task_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0', memo, status: 'RUNNING', retentionMs: 30 * 86_400_000, historyLength: 3, pendingActivities: [], ...overrides };
}

// The builders' types are the wire's (src/contract/wire); these check the values they produce,
// formats included, against what the document promises.
describe('documented task schema', () => {
  it.each([
    ['queued', view({})],
    ['running', view({ pendingActivities: [{ started: true, attempt: 1, lastStartedAt: new Date(CREATED_AT) }] })],
    ['succeeded', view({ status: 'COMPLETED', closedAt: new Date(CREATED_AT), outcome: { status: 'succeeded', output: { summary: 'Short.' } } })],
    ['failed', view({ status: 'COMPLETED', closedAt: new Date(CREATED_AT), outcome: { status: 'failed', error: { code: 'INPUT_REJECTED', message: 'No.' } } })],
    ['canceled', view({ status: 'CANCELLED', closedAt: new Date(CREATED_AT) })],
  ])('accepts a %s task exactly as the API builds it', (_name, taskView) => {
    expect(taskResourceSchema.strict().safeParse(toTaskResource(taskView)).error).toBeUndefined();
  });

  it('refuses a status the API never returns', () => {
    expect(taskResourceSchema.safeParse({ ...toTaskResource(view({})), status: 'paused' }).success).toBe(false);
  });
});

describe('documented assessment schema', () => {
  it('accepts a submitted and a completed assessment exactly as the API builds them', () => {
    const submitted = toAssessmentResource('asmt_01', { created_at: CREATED_AT, name: 'Platform', request_hash: 'ab' }, null);
    const completed = toAssessmentResource('asmt_01', {
      created_at: CREATED_AT,
      name: 'Platform',
      request_hash: 'ab',
      findings: [{ check: 'single_point_of_failure', severity: 'high', message: 'db-1 alone.', component_ids: ['db-1'] }],
      state: {
        status: 'completed',
        updated_at: CREATED_AT,
        checks_completed: true,
        review: { verdict: 'approved', notes: 'Fine.', reviewer: 'alice', completed_at: CREATED_AT },
        escalations: [{ kind: 'claim_overdue', at: CREATED_AT }],
      },
    }, CREATED_AT);
    for (const resource of [submitted, completed]) expect(assessmentResourceSchema.strict().safeParse(resource).error).toBeUndefined();
  });
});
