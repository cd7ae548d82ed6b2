import type { AssessmentMemo } from '../../contract';
import type { PendingAssessment } from '../../contract/wire';
import type { AssessmentWorkflowRef } from '../../common/ids/assessment-ids';
import type { ReviewPlacement } from '../../common/storage/tables';

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
