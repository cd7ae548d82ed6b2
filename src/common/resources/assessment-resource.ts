import type { AssessmentEscalation, AssessmentMemo, AssessmentReview, AssessmentStatus, Finding } from '../../contract';

/** The assessment as a client sees it (docs/api.md, Resources: Network assessment). */
export interface AssessmentResource {
  assessment_id: string;
  name: string;
  status: AssessmentStatus;
  created_at: string;
  updated_at: string;
  /** When the closed assessment is deleted (the retention period after its workflow closed); null until then. */
  expires_at: string | null;
  /** Present once the automated checks ran. */
  findings?: Finding[];
  /** Present once completed. */
  review?: AssessmentReview;
  /** SLA escalations recorded so far, oldest first. */
  escalations: AssessmentEscalation[];
}

/**
 * Built from the workflow's memo alone: the API writes the first keys at start, the workflow
 * publishes its state there after every transition, and describe() returns it with no worker.
 * Until the workflow's first step runs there is no state yet: it is submitted, unchanged since creation.
 * `expiresAt` comes from the workflow's close time (expiry.ts).
 */
export function toAssessmentResource(assessmentId: string, memo: AssessmentMemo, expiresAt: string | null): AssessmentResource {
  const state = memo.state;
  const resource: AssessmentResource = {
    assessment_id: assessmentId,
    name: memo.name,
    status: state?.status ?? 'submitted',
    created_at: memo.created_at,
    updated_at: state?.updated_at ?? memo.created_at,
    expires_at: expiresAt,
    escalations: state?.escalations ?? [],
  };
  if (memo.findings) resource.findings = memo.findings;
  if (state?.review) resource.review = state.review;
  return resource;
}
