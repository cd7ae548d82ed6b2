import type { AssessmentClaim, AssessmentEscalation, AssessmentMemo, AssessmentStatus } from '../../contract';
import type { AssessmentWorkflowRef } from '../ids/assessment-ids';
import type { ReviewPlacement } from '../storage/assessment-index-store';

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
  /** The stage under review, and the reviewer group that acts on it (null: any reviewer). */
  stage: string | null;
  group: string | null;
}

/** `placement`: where the review index puts it, which names the active stage even before the checks ran. */
export function toPendingAssessment(ref: AssessmentWorkflowRef, memo: AssessmentMemo, placement: Pick<ReviewPlacement, 'stage' | 'stageGroup'>): PendingAssessment {
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
    stage: placement.stage,
    group: placement.stageGroup,
  };
}
