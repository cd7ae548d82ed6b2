// The resources as a client sees them on the wire (spec §2, DESIGN §3 and §4). Defined here, not
// imported from workflows/, so the SDK can be published on its own.

export type TaskStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export type TaskErrorCode = 'INPUT_REJECTED' | 'PROVIDER_UNAVAILABLE' | 'TIMED_OUT' | 'CANCELED' | 'INTERNAL';

export interface TaskError {
  /** One of TaskErrorCode today; typed open so a newer server's code still reaches the caller. */
  code: TaskErrorCode | (string & {});
  message: string;
}

export interface SummarizeInput {
  text: string;
  max_sentences?: number;
}

export interface CreateTaskRequest {
  task_type: 'summarize';
  input: SummarizeInput;
}

interface TaskFields {
  id: string;
  task_type: string;
  created_at: string;
  updated_at: string;
}

export type PendingTask = TaskFields & { status: 'queued' | 'running' };
export type SucceededTask = TaskFields & { status: 'succeeded'; output: { summary: string } };
export type FailedTask = TaskFields & { status: 'failed'; error: TaskError };

/** Narrow on `status` to reach `output` (succeeded) or `error` (failed). */
export type Task = PendingTask | SucceededTask | FailedTask;

export type AssessmentStatus = 'submitted' | 'under_review' | 'completed';

export interface NetworkComponent {
  id: string;
  kind: string;
  zone: string;
  attributes?: Record<string, string | number | boolean>;
}

export interface NetworkLink {
  from: string;
  to: string;
  kind?: string;
}

export interface CreateAssessmentRequest {
  name: string;
  context: string;
  components: NetworkComponent[];
  links: NetworkLink[];
}

export type FindingSeverity = 'critical' | 'high' | 'medium' | 'low' | 'info';

export interface Finding {
  check: string;
  severity: FindingSeverity;
  message: string;
  component_ids: string[];
}

export type ReviewVerdict = 'approved' | 'changes_requested' | 'rejected';

export interface AssessmentReview {
  verdict: ReviewVerdict;
  notes?: string;
  reviewer?: string;
  completed_at?: string;
}

export interface Assessment {
  assessment_id: string;
  status: AssessmentStatus;
  created_at: string;
  updated_at: string;
  name?: string;
  findings?: Finding[];
  /** Present once the status is completed. */
  review?: AssessmentReview;
}
