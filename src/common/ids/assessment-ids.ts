import { derivedPrefixedId, newPrefixedId, prefixedIdMatcher, prefixedIdPattern } from './prefixed-ulid';
import { ASSESSMENT_ID_PREFIX, ASSESSMENT_WORKFLOW_ID_PREFIX } from '../../contract';

export function newAssessmentId(): string {
  return newPrefixedId(ASSESSMENT_ID_PREFIX);
}

/** The assessment id for (organisation, Idempotency-Key); see derivedPrefixedId. */
export function assessmentIdForIdempotencyKey(organizationId: string, idempotencyKey: string): string {
  return derivedPrefixedId(ASSESSMENT_ID_PREFIX, organizationId, idempotencyKey);
}

export const isAssessmentId: (value: string) => boolean = prefixedIdMatcher(ASSESSMENT_ID_PREFIX);
export const ASSESSMENT_ID_PATTERN = prefixedIdPattern(ASSESSMENT_ID_PREFIX);

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
