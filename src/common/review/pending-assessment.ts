import type { AssessmentClaim, AssessmentEscalation, AssessmentMemo, AssessmentStatus } from '../../contract';
import type { AssessmentWorkflowRef } from '../ids/assessment-ids';

/** One line of the review queue. */
export interface PendingAssessment {
  assessment_id: string;
  organization_id: string;
  name: string;
  status: AssessmentStatus;
  created_at: string;
  updated_at: string;
  checks_completed: boolean;
  claim?: AssessmentClaim;
  due_at?: string;
  escalations: AssessmentEscalation[];
}

export function toPendingAssessment(ref: AssessmentWorkflowRef, memo: AssessmentMemo): PendingAssessment {
  const state = memo.state;
  return {
    assessment_id: ref.assessmentId,
    organization_id: ref.organizationId,
    name: memo.name,
    status: state?.status ?? 'submitted',
    created_at: memo.created_at,
    updated_at: state?.updated_at ?? memo.created_at,
    checks_completed: state?.checks_completed ?? false,
    ...(state?.claim ? { claim: state.claim } : {}),
    ...(state?.due_at ? { due_at: state.due_at } : {}),
    escalations: state?.escalations ?? [],
  };
}
