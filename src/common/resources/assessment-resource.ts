import type { AssessmentEscalation, AssessmentMemo, AssessmentReview, AssessmentStage, AssessmentStatus, Finding } from '../../contract';
import { NO_REVISION_LINKS, type RevisionLinks } from '../storage/assessment-revision-store';

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
  /** The stage under review; absent once completed. */
  stage?: string;
  /** Every stage of the pipeline in order; absent until the workflow first published its state, and in assessments created before pipelines. */
  stages?: AssessmentStage[];
  /** The assessment this one revises, or null. */
  revision_of: string | null;
  /** The assessment that revises this one, or null. */
  revised_by: string | null;
}

/**
 * Built from the workflow's memo and the revision links: the API writes the memo's first keys at
 * start, the workflow publishes its state there after every transition, and describe() returns it
 * with no worker. Until the workflow's first step runs there is no state yet: it is submitted,
 * unchanged since creation. `expiresAt` comes from the workflow's close time (expiry.ts); the
 * links from the service's database (AssessmentRevisionStore), since they outlive the workflows.
 */
export function toAssessmentResource(assessmentId: string, memo: AssessmentMemo, expiresAt: string | null, links: RevisionLinks = NO_REVISION_LINKS): AssessmentResource {
  const state = memo.state;
  const resource: AssessmentResource = {
    assessment_id: assessmentId,
    name: memo.name,
    status: state?.status ?? 'submitted',
    created_at: memo.created_at,
    updated_at: state?.updated_at ?? memo.created_at,
    expires_at: expiresAt,
    escalations: state?.escalations ?? [],
    revision_of: links.revisionOf,
    revised_by: links.revisedBy,
  };
  if (memo.findings) resource.findings = memo.findings;
  if (state?.review) resource.review = state.review;
  if (state?.stage !== undefined) resource.stage = state.stage;
  if (state?.stages) resource.stages = state.stages;
  return resource;
}
