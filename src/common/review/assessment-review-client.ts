import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type Client,
  type WorkflowExecutionInfo,
  type WorkflowHandle,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  alreadyCompletedMessage,
  ASSESSMENT_WORKFLOW_TYPE,
  claimAssessmentUpdate,
  completeAssessmentUpdate,
  releaseAssessmentUpdate,
  type AssessmentClaim,
  type AssessmentEscalation,
  type AssessmentMemo,
  type AssessmentReviewSnapshot,
  type AssessmentStatus,
  type AssessmentWorkflowInput,
  type ClaimAssessmentRequest,
  type CompleteAssessmentRequest,
  type NetworkGraph,
  type ReleaseAssessmentRequest,
  REVIEW_REFUSAL_CODES,
  type ReviewRefusalCode,
} from '../../contract';
import { isAssessmentId, parseAssessmentWorkflowId, type AssessmentWorkflowRef } from '../ids/assessment-ids';
import { expiresAt } from '../resources/expiry';
import { toAssessmentResource, type AssessmentResource } from '../resources/assessment-resource';
import { readWorkflowStartInput } from '../temporal/workflow-start-input';

const REFUSAL_CODES: ReadonlySet<string> = new Set<ReviewRefusalCode>(REVIEW_REFUSAL_CODES);

/** The workflow refused the action; `code` says why (a ReviewRefusalCode, or CLOSED for a workflow ended some other way). */
export class ReviewRefusedError extends Error {
  override name = 'ReviewRefusedError';

  constructor(
    readonly code: ReviewRefusalCode | 'CLOSED',
    message: string,
  ) {
    super(message);
  }
}

export class AssessmentNotFoundError extends Error {
  override name = 'AssessmentNotFoundError';

  constructor(readonly assessmentId: string) {
    super(`No assessment ${assessmentId} in this environment`);
  }
}

/** No worker confirmed the update in time; the server may still apply it when one runs. */
export class ReviewUnconfirmedError extends Error {
  override name = 'ReviewUnconfirmedError';
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
}

/** Everything a reviewer needs: the customer's view plus the claim, the deadline and what was submitted. */
export interface OperatorAssessmentView extends AssessmentResource {
  organization_id: string;
  workflow_status: string;
  claim?: AssessmentClaim;
  due_at?: string;
  context: string;
  graph: NetworkGraph;
}

export interface AssessmentReviewClientOptions {
  /** How long an update may wait for a worker to accept or refuse it. */
  updateTimeoutMs: number;
  /** How long the namespace keeps a closed workflow (RETENTION_PERIOD), for expires_at. */
  retentionMs: number;
}

/**
 * The architecture team's side of an assessment, straight on Temporal: the API's review operations
 * run it for an authenticated reviewer (and the chaos suite directly). Assessments are found by id
 * through visibility, so reviewers never need to know which organisation submitted one.
 */
export class AssessmentReviewClient {
  constructor(
    private readonly client: Client,
    private readonly options: AssessmentReviewClientOptions,
  ) {}

  /**
   * Open assessments in the order they should be picked up: the earliest SLA deadline first (so
   * overdue ones lead), then the oldest; one whose checks still run has no deadline yet and comes last.
   */
  async pending(): Promise<PendingAssessment[]> {
    const pending: PendingAssessment[] = [];
    for await (const execution of this.client.workflow.list({ query: assessmentQuery(true) })) {
      const ref = parseAssessmentWorkflowId(execution.workflowId);
      const memo = execution.memo as unknown as AssessmentMemo | undefined;
      if (!ref || !memo || memo.state?.status === 'completed') continue;
      pending.push(toPendingAssessment(ref, memo));
    }
    return pending.sort((a, b) => compareText(a.due_at ?? '~', b.due_at ?? '~') || compareText(a.created_at, b.created_at));
  }

  async show(assessmentId: string): Promise<OperatorAssessmentView> {
    const { ref, handle } = await this.find(assessmentId);
    const description = await handle.describe();
    const memo = description.memo as unknown as AssessmentMemo;
    const input = await readWorkflowStartInput<AssessmentWorkflowInput>(this.client, handle.workflowId);
    return {
      ...toAssessmentResource(ref.assessmentId, memo, expiresAt(description.closeTime, this.options.retentionMs)),
      organization_id: ref.organizationId,
      workflow_status: description.status.name,
      ...(memo.state?.claim ? { claim: memo.state.claim } : {}),
      ...(memo.state?.due_at ? { due_at: memo.state.due_at } : {}),
      context: input.context,
      graph: input.graph,
    };
  }

  claim(assessmentId: string, request: ClaimAssessmentRequest): Promise<AssessmentReviewSnapshot> {
    return this.update(assessmentId, (handle) => handle.executeUpdate(claimAssessmentUpdate, { args: [request] }));
  }

  complete(assessmentId: string, request: CompleteAssessmentRequest): Promise<AssessmentReviewSnapshot> {
    return this.update(assessmentId, (handle) => handle.executeUpdate(completeAssessmentUpdate, { args: [request] }));
  }

  release(assessmentId: string, request: ReleaseAssessmentRequest): Promise<AssessmentReviewSnapshot> {
    return this.update(assessmentId, (handle) => handle.executeUpdate(releaseAssessmentUpdate, { args: [request] }));
  }

  private async update(
    assessmentId: string,
    send: (handle: WorkflowHandle) => Promise<AssessmentReviewSnapshot>,
  ): Promise<AssessmentReviewSnapshot> {
    const { handle } = await this.find(assessmentId);
    await this.refuseIfClosed(handle);
    try {
      return await this.client.connection.withDeadline(Date.now() + this.options.updateTimeoutMs, () => send(handle));
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure && REFUSAL_CODES.has(error.cause.type ?? '')) {
        throw new ReviewRefusedError(error.cause.type as ReviewRefusalCode, error.cause.message);
      }
      // The workflow closed between the check above and the update.
      if (error instanceof WorkflowNotFoundError) await this.refuseIfClosed(handle);
      if (isDeadlineExceeded(error)) {
        throw new ReviewUnconfirmedError(
          `No worker confirmed the action within ${Math.round(this.options.updateTimeoutMs / 1000)} s; check that a worker runs, then look with \`assay assessments show ${assessmentId}\` before retrying`,
        );
      }
      throw error;
    }
  }

  private async refuseIfClosed(handle: WorkflowHandle): Promise<void> {
    const description = await handle.describe();
    if (description.status.name === 'RUNNING') return;
    const review = (description.memo as unknown as AssessmentMemo).state?.review;
    if (review) {
      throw new ReviewRefusedError('ALREADY_COMPLETED', alreadyCompletedMessage(review));
    }
    throw new ReviewRefusedError('CLOSED', `The assessment's workflow is ${description.status.name}; it accepts no actions`);
  }

  /** Open assessments are searched first: they are the ones reviewers act on, and far fewer. */
  private async find(assessmentId: string): Promise<{ ref: AssessmentWorkflowRef; handle: WorkflowHandle }> {
    if (isAssessmentId(assessmentId)) {
      for (const openOnly of [true, false]) {
        for await (const execution of this.client.workflow.list({ query: assessmentQuery(openOnly) })) {
          const ref = matchingRef(execution, assessmentId);
          if (ref) return { ref, handle: this.client.workflow.getHandle(execution.workflowId) };
        }
      }
    }
    throw new AssessmentNotFoundError(assessmentId);
  }

}

/** ISO 8601 UTC timestamps sort as text; '~' sorts after every one of them. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function assessmentQuery(openOnly: boolean): string {
  const byType = `WorkflowType = '${ASSESSMENT_WORKFLOW_TYPE}'`;
  return openOnly ? `${byType} AND ExecutionStatus = 'Running'` : byType;
}

function matchingRef(execution: WorkflowExecutionInfo, assessmentId: string): AssessmentWorkflowRef | undefined {
  const ref = parseAssessmentWorkflowId(execution.workflowId);
  return ref?.assessmentId === assessmentId ? ref : undefined;
}

function toPendingAssessment(ref: AssessmentWorkflowRef, memo: AssessmentMemo): PendingAssessment {
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
  };
}

// gRPC DEADLINE_EXCEEDED, as the client reports it for an update nobody answered in time.
const GRPC_DEADLINE_EXCEEDED = 4;

/** The SDK wraps the deadline at different depths depending on where the call was when it expired. */
function isDeadlineExceeded(error: unknown): boolean {
  for (let current = error as { code?: number; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (current instanceof WorkflowUpdateRPCTimeoutOrCancelledError || current.code === GRPC_DEADLINE_EXCEEDED) return true;
  }
  return false;
}
