import type { AssessmentClaim, AssessmentEscalation, AssessmentStatus, Finding, NetworkGraph, NetworkLink } from '../../contract';
import type { AssessmentResource } from '../resources/assessment-resource';

// What the reviewer API answers, typed once for the API that serves it and for the reviewer CLI
// and the review console that read it. Types only: the console's bundle takes none of the server.

/**
 * Everything a reviewer needs: the customer's view (stages and revision links included) plus the
 * claim, the deadline, what was submitted and, for a revision, what it changed.
 */
export interface OperatorAssessmentView extends AssessmentResource {
  organization_id: string;
  workflow_status: string;
  claim?: AssessmentClaim;
  due_at?: string;
  context: string;
  graph: NetworkGraph;
  /** Present for a revision while the assessment it revises is kept. */
  revision?: AssessmentRevisionDiff;
}

/** What a revision changed against the assessment it revises, as a reviewer sees it. */
export interface AssessmentRevisionDiff {
  /** The assessment revised. */
  of: string;
  /** Component ids, in the order of the graph they are in. */
  components_added: string[];
  components_removed: string[];
  links_added: NetworkLink[];
  links_removed: NetworkLink[];
  /** The older assessment's findings the revision no longer has; absent while the revision's checks run. */
  findings_fixed?: Finding[];
  /** The revision's findings the older one did not have; absent while its checks run. */
  findings_new?: Finding[];
}

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
