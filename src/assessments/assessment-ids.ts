import { derivedPrefixedId, newPrefixedId, prefixedIdMatcher } from '../ids/prefixed-ulid';
import { ASSESSMENT_ID_PREFIX } from '../../workflows/shared';

const WORKFLOW_ID_PREFIX = 'assessment/';

export function newAssessmentId(): string {
  return newPrefixedId(ASSESSMENT_ID_PREFIX);
}

/** The assessment id for (organisation, Idempotency-Key); see derivedPrefixedId. */
export function assessmentIdForIdempotencyKey(organizationId: string, idempotencyKey: string): string {
  return derivedPrefixedId(ASSESSMENT_ID_PREFIX, organizationId, idempotencyKey);
}

export const isAssessmentId: (value: string) => boolean = prefixedIdMatcher(ASSESSMENT_ID_PREFIX);

/** The organisation is part of the workflow id, so another organisation's assessment id resolves to nothing. */
export function assessmentWorkflowId(organizationId: string, assessmentId: string): string {
  return `${WORKFLOW_ID_PREFIX}${organizationId}/${assessmentId}`;
}

export interface AssessmentWorkflowRef {
  organizationId: string;
  assessmentId: string;
}

/** The inverse of assessmentWorkflowId, for operator tools that find workflows by listing them. */
export function parseAssessmentWorkflowId(workflowId: string): AssessmentWorkflowRef | undefined {
  if (!workflowId.startsWith(WORKFLOW_ID_PREFIX)) return undefined;
  const [organizationId, assessmentId, ...rest] = workflowId.slice(WORKFLOW_ID_PREFIX.length).split('/');
  if (rest.length > 0 || !organizationId || !isAssessmentId(assessmentId ?? '')) return undefined;
  return { organizationId, assessmentId };
}
