import type { AssessmentMemo } from '../../contract';
import type { Assessment } from '../../contract/wire/assessment';
import { NO_REVISION_LINKS, type RevisionLinks } from '../storage/assessment-revision-store';

/**
 * Built from the workflow's memo and the revision links: the API writes the memo's first keys at
 * start, the workflow publishes its state there after every transition, and describe() returns it
 * with no worker. Until the workflow's first step runs there is no state yet: it is submitted,
 * unchanged since creation. `expiresAt` comes from the workflow's close time (expiry.ts); the
 * links from the service's database (AssessmentRevisionStore), since they outlive the workflows.
 */
export function toAssessmentResource(assessmentId: string, memo: AssessmentMemo, expiresAt: string | null, links: RevisionLinks = NO_REVISION_LINKS): Assessment {
  const state = memo.state;
  const resource: Assessment = {
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
