import { ASSESSMENT_ID_PATTERN, assessmentIdForIdempotencyKey, isAssessmentId, newAssessmentId, parseAssessmentWorkflowId } from '../../../../src/common/ids/assessment-ids';
import { ID_KINDS } from '../../../../src/common/ids/id-kinds';
import { assessmentWorkflowId } from '../../../../src/contract';

describe('assessment ids', () => {
  it('are the assessment kind of id', () => {
    expect([newAssessmentId, assessmentIdForIdempotencyKey, isAssessmentId, ASSESSMENT_ID_PATTERN]).toEqual([
      ID_KINDS.assessment.newId,
      ID_KINDS.assessment.idForIdempotencyKey,
      ID_KINDS.assessment.isId,
      ID_KINDS.assessment.pattern,
    ]);
  });
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
