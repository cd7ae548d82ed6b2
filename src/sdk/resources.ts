// The resources as a client sees them on the wire (docs/api.md): the one definition of every
// public shape. Written here so the SDK can be published on its own; the service imports these
// types (the contract and src/common/resources derive theirs from them), and each API resource's
// *.schemas.ts (src/api/<resource>/) fails the build when the schemas it validates and documents
// with drift from them.

/** What a task does; summarising is the only kind today. */
export type TaskType = 'summarize';

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

export type TaskPriority = 'high' | 'normal' | 'low';

export interface CreateTaskRequest {
  task_type: TaskType;
  input: SummarizeInput;
  /** A model the service offers (GET /v1/models); absent, the service's default. */
  model?: string;
  /** Within the organisation's share; default normal. */
  priority?: TaskPriority;
  /** RFC 3339: a task not final by then fails TIMED_OUT (or send the Cancel-After header). */
  deadline?: string;
}

/** `built-in` (the extractive summariser) or `openai-compatible`. */
export type ModelProvider = 'built-in' | 'openai-compatible';

/** A model a task may name (GET /v1/models). */
export interface Model {
  name: string;
  /** One of ModelProvider today; typed open for newer providers. */
  provider: ModelProvider | (string & {});
  default: boolean;
  context_tokens?: number;
  price_per_1k_input_tokens?: number;
  price_per_1k_output_tokens?: number;
}

/**
 * What a task used: calls to its model's provider and the tokens the provider reported for them,
 * the characters it read and wrote, and its cost when the model has a price. The built-in model
 * calls no provider and reports characters only.
 */
export interface TaskUsage {
  model: string;
  provider_calls: number;
  /** Summed over the calls, as the provider reported them; absent when it reported none. */
  input_tokens?: number;
  output_tokens?: number;
  input_characters: number;
  output_characters: number;
  /** In the operator's currency, from the model's prices when the task finished; absent without a price. */
  cost?: number;
}

/** One model's usage on one UTC day (GET /v1/usage). */
export interface UsageTotal {
  date: string;
  model: string;
  tasks: number;
  provider_calls: number;
  input_tokens: number;
  output_tokens: number;
  input_characters: number;
  output_characters: number;
  cost: number | null;
}

/** The organisation's usage in the key's environment over `from`…`to` (UTC days, inclusive). */
export interface UsageReport {
  from: string;
  to: string;
  data: UsageTotal[];
}

/** How far a task that runs in steps (on a remote model) has got; completed_steps only grows. */
export interface TaskProgress {
  completed_steps: number;
  total_steps: number;
}

interface TaskFields {
  id: string;
  task_type: string;
  /** The model it runs on. Older servers, and tasks created before models could be chosen, omit it. */
  model?: string;
  /** Present when the create asked for high or low. */
  priority?: TaskPriority;
  /** Present when the create set one. */
  deadline?: string;
  /** On the task of a batch's item: its batch and the item's key. */
  batch_id?: string;
  item_key?: string;
  progress?: TaskProgress;
  created_at: string;
  updated_at: string;
  /** When the finished task is deleted (the service's retention period after it finished); null until it finishes. Older servers omit it. */
  expires_at?: string | null;
}

export type PendingTask = TaskFields & { status: 'queued' | 'running' };
export type SucceededTask = TaskFields & { status: 'succeeded'; output: { summary: string }; usage?: TaskUsage };
/** `usage` is present when the task called its model before it failed. */
export type FailedTask = TaskFields & { status: 'failed'; error: TaskError; usage?: TaskUsage };

/** Narrow on `status` to reach `output` (succeeded) or `error` (failed). */
export type Task = PendingTask | SucceededTask | FailedTask;

/** One item of a batch: its task shows `key` as item_key. */
export interface BatchItem {
  /** 1-128 printable ASCII characters without spaces, unique in the batch. */
  key: string;
  input: SummarizeInput;
}

export interface CreateBatchRequest {
  task_type: TaskType;
  /** A model the service offers (GET /v1/models); absent, the service's default. */
  model?: string;
  /** Every item's task's priority within the organisation's share; default low. */
  priority?: TaskPriority;
  /** RFC 3339: every item's task not final by then fails TIMED_OUT. */
  deadline?: string;
  /** 1 to 10,000 items; more is 413 PAYLOAD_TOO_LARGE. */
  items: BatchItem[];
}

/** in_progress while items wait or run; canceling after a cancel until its running tasks closed; ended once every admitted item's task is final. */
export type BatchStatus = 'in_progress' | 'canceling' | 'ended';

/** Progress is (succeeded + failed) / total; succeeded + failed reaches admitted when the batch ends. */
export interface BatchCounts {
  total: number;
  /** Items that have become tasks; the others wait their turn (or, after a cancel, never run). */
  admitted: number;
  succeeded: number;
  /** Canceled and timed-out tasks included. */
  failed: number;
}

export interface Batch {
  id: string;
  task_type: string;
  model: string;
  priority: TaskPriority;
  /** Present when the create set one. */
  deadline?: string;
  status: BatchStatus;
  counts: BatchCounts;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
  canceled_at: string | null;
  /** When the ended batch is deleted; null until it ends. Its tasks expire on their own. */
  expires_at: string | null;
}

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
  /** The assessment this one revises: one of yours, in this environment, whose review requested changes and which nothing revises yet. */
  revision_of?: string;
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

/** `pending`: not reached yet; `active`: waiting for a claim or a verdict; `skipped`: an earlier stage ended the review; else the stage's verdict. */
export type ReviewStageState = 'pending' | 'active' | 'approved' | 'changes_requested' | 'rejected' | 'skipped';

export interface AssessmentClaim {
  reviewer: string;
  claimed_at: string;
}

/** One verdict given in a stage. */
export interface StageReview {
  reviewer: string;
  verdict: ReviewVerdict;
  notes: string;
  at: string;
}

/** One stage of an assessment's review, in the order the service's pipeline gives them. */
export interface AssessmentStage {
  name: string;
  /** The reviewer group that acts on this stage; null when any reviewer may. */
  group: string | null;
  /** 2 when the stage needs the approvals of two different reviewers (four-eyes). */
  approvals_required: 1 | 2;
  state: ReviewStageState;
  /** Every verdict given in the stage, oldest first. */
  reviews: StageReview[];
  /** Present while a reviewer holds the stage. */
  claim?: AssessmentClaim;
  started_at?: string;
  completed_at?: string;
  /** When the active stage's current wait (for a claim or a verdict) passes its deadline. */
  due_at?: string;
}

/** An SLA deadline the review passed: a stage waited too long for a claim, or a claimed one for its verdict. */
export type AssessmentEscalationKind = 'claim_overdue' | 'review_overdue';

export interface AssessmentEscalation {
  kind: AssessmentEscalationKind;
  at: string;
  /** The stage whose deadline passed; absent in assessments created before stages existed. */
  stage?: string;
}

export interface Assessment {
  assessment_id: string;
  status: AssessmentStatus;
  created_at: string;
  updated_at: string;
  /** When the closed assessment is deleted (the service's retention period after it closed); null until then. Older servers omit it. */
  expires_at?: string | null;
  name?: string;
  findings?: Finding[];
  /** Present once the status is completed. */
  review?: AssessmentReview;
  /** SLA escalations recorded so far, oldest first. */
  escalations?: AssessmentEscalation[];
  /** The name of the stage under review; absent once completed. Older servers omit it. */
  stage?: string;
  /** Every stage of the review in order. Older servers, and assessments created before stages existed, omit it. */
  stages?: AssessmentStage[];
  /** The assessment this one revises; null when none. Older servers omit it. */
  revision_of?: string | null;
  /** The assessment that revises this one; null until one does. Older servers omit it. */
  revised_by?: string | null;
}

/** One page of a list endpoint; pass `next_cursor` back as `cursor` for the next one. */
export interface ListPage<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Filters of a list endpoint; a cursor is bound to the filters it was issued with. */
export interface ListQuery<S extends string> {
  status?: S;
  /** RFC 3339; items created at or after this instant. */
  created_after?: string;
  /** RFC 3339; items created before this instant. */
  created_before?: string;
  /** Items per page, 1 to 100 (the service's default is 20). */
  limit?: number;
  cursor?: string;
}

export type WebhookEventType = 'ai_task.completed' | 'ai_batch.completed' | 'assessment.reviewed';

/** What a delivery can carry: a subscribed event type, or `webhook.test`, sent only where a customer asks for it. */
export type DeliveredWebhookEventType = WebhookEventType | 'webhook.test';

export interface CreateWebhookEndpointRequest {
  url: string;
  events: WebhookEventType[];
  description?: string;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEventType[];
  description?: string;
  status: 'enabled' | 'disabled';
  disabled_reason?: string;
  created_at: string;
  updated_at: string;
}

/** The answer to a create or a secret rotation: the only times the signing secret is shown. */
export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  secret: string;
}

export interface WebhookDelivery {
  id: string;
  event_id: string;
  event_type: DeliveredWebhookEventType;
  attempt: number;
  outcome: 'succeeded' | 'failed';
  http_status?: number;
  error?: string;
  attempted_at: string;
  duration_ms: number;
}

/** The answer to a test event or a redelivery: the event is on its way; its attempts appear in the delivery log. */
export interface WebhookEventQueued {
  event_id: string;
  endpoint_id: string;
}
