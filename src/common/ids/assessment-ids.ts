import { ASSESSMENT_WORKFLOW_ID_PREFIX } from '../../contract';
import { ID_KINDS } from './id-kinds';

export const { newId: newAssessmentId, idForIdempotencyKey: assessmentIdForIdempotencyKey, isId: isAssessmentId, pattern: ASSESSMENT_ID_PATTERN } = ID_KINDS.assessment;

export interface AssessmentWorkflowRef {
  organizationId: string;
  assessmentId: string;
}

/** The inverse of assessmentWorkflowId, for operator tools that find workflows by listing them. */
export function parseAssessmentWorkflowId(workflowId: string): AssessmentWorkflowRef | undefined {
  if (!workflowId.startsWith(ASSESSMENT_WORKFLOW_ID_PREFIX)) return undefined;
  const [organizationId, assessmentId, ...rest] = workflowId.slice(ASSESSMENT_WORKFLOW_ID_PREFIX.length).split('/');
  if (rest.length > 0 || !organizationId || !isAssessmentId(assessmentId ?? '')) return undefined;
  return { organizationId, assessmentId };
}
