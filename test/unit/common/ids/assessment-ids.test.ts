import { assessmentIdForIdempotencyKey, isAssessmentId, newAssessmentId, parseAssessmentWorkflowId } from '../../../../src/common/ids/assessment-ids';
import { assessmentWorkflowId } from '../../../../src/contract';
import { taskIdForIdempotencyKey } from '../../../../src/common/ids/task-ids';

describe('assessment ids', () => {
  it('makes new ids of the form asmt_<ULID>', () => {
    expect(isAssessmentId(newAssessmentId())).toBe(true);
  });

  it('derives the same id for the same organisation and Idempotency-Key, and another for another organisation', () => {
    const id = assessmentIdForIdempotencyKey('acme', 'k-1');
    expect(assessmentIdForIdempotencyKey('acme', 'k-1')).toBe(id);
    expect(assessmentIdForIdempotencyKey('globex', 'k-1')).not.toBe(id);
    expect(isAssessmentId(id)).toBe(true);
  });

  it('derives an assessment id that is never a task id for the same key', () => {
    expect(assessmentIdForIdempotencyKey('acme', 'k-1')).not.toBe(taskIdForIdempotencyKey('acme', 'k-1'));
  });

  it.each(['', 'asmt_', 'asmt_01JAAAAAAAAAAAAAAAAAAAAAA', 'asmt_81JAAAAAAAAAAAAAAAAAAAAAAA', 'task_01JAAAAAAAAAAAAAAAAAAAAAAA', 'xasmt_01JAAAAAAAAAAAAAAAAAAAAAAA'])(
    'rejects %p as an assessment id',
    (value) => {
      expect(isAssessmentId(value)).toBe(false);
    },
  );
});

describe('assessment workflow ids', () => {
  const id = 'asmt_01JAAAAAAAAAAAAAAAAAAAAAAA';

  it('put the organisation in the workflow id', () => {
    expect(assessmentWorkflowId('acme', id)).toBe(`assessment/acme/${id}`);
  });

  it('parse back into organisation and assessment id', () => {
    expect(parseAssessmentWorkflowId(assessmentWorkflowId('acme', id))).toEqual({ organizationId: 'acme', assessmentId: id });
  });

  it.each([`ai-task/acme/${id}`, `assessment/${id}`, `assessment//${id}`, `assessment/acme/${id}/x`, 'assessment/acme/asmt_nope'])(
    'do not parse %p',
    (workflowId) => {
      expect(parseAssessmentWorkflowId(workflowId)).toBeUndefined();
    },
  );
});
