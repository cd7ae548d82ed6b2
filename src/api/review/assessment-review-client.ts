import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type Client,
  type WorkflowExecutionDescription,
  type WorkflowHandle,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  alreadyCompletedMessage,
  assessmentWorkflowId,
  claimAssessmentUpdate,
  completeAssessmentUpdate,
  releaseAssessmentUpdate,
  type AssessmentMemo,
  type AssessmentReviewSnapshot,
  type ClaimAssessmentRequest,
  type CompleteAssessmentRequest,
  type ReleaseAssessmentRequest,
  REVIEW_REFUSAL_CODES,
  type ReviewRefusalCode,
} from '../../contract';
import { isAssessmentId, type AssessmentWorkflowRef } from '../../common/ids/assessment-ids';
import { expiresAt } from '../../common/resources/expiry';
import { toAssessmentResource } from '../../common/resources/assessment-resource';
import type { RevisionLinks } from '../../common/storage/assessment-revision-store';
import type { AssessmentRevisionDiff, OperatorAssessmentView } from '../../contract/wire';
import { revisionDiff, type RevisionSide } from './revision-diff';
import { GrpcStatus, isGrpcNotFound } from '../../common/temporal/grpc-status';
import type { SubmittedArchitecture, SubmittedArchitectures } from './submitted-architectures';

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

export interface AssessmentReviewClientOptions {
  /** How long an update may wait for a worker to accept or refuse it. */
  updateTimeoutMs: number;
  /** How long the namespace keeps a closed workflow (RETENTION_PERIOD), for expires_at. */
  retentionMs: number;
}

/** How the client finds an assessment's workflow and what was submitted, without listing the namespace. */
export interface AssessmentLookups {
  /** The organisation an assessment id belongs to in this environment; undefined when there is no such assessment. */
  locate(assessmentId: string): Promise<AssessmentWorkflowRef | undefined>;
  architectures: SubmittedArchitectures;
  /**
   * Both revision links of an assessment (the API's AssessmentRevisionStore). Without it, what the
   * assessment revises comes from its input and what revises it is unknown (null).
   */
  revisions?: (ref: AssessmentWorkflowRef) => Promise<RevisionLinks>;
  /**
   * Whether the reviewer may see an assessment, from its review state (undefined while its checks
   * run): the API's ReviewerSight. One they may not is not found by any operation, and a revision
   * link to it is left out. Without it, every assessment is in sight.
   */
  inSight?: (assessmentId: string, state: AssessmentReviewSnapshot | undefined) => Promise<boolean>;
}

/** The other end of a revision link, as described. */
interface LinkedAssessment {
  assessmentId: string;
  memo: AssessmentMemo;
}

/**
 * The architecture team's side of an assessment, straight on Temporal: the API's review operations
 * run it for an authenticated reviewer (and the chaos suite directly). Reviewers name an assessment
 * by its id alone; `lookups.locate` says which organisation's workflow it is (the API's review
 * index), so each action costs the same however many assessments the namespace holds.
 */
export class AssessmentReviewClient {
  constructor(
    private readonly client: Client,
    private readonly options: AssessmentReviewClientOptions,
    private readonly lookups: AssessmentLookups,
  ) {}

  /**
   * describe() for the live state; the submitted architectures (this one's, and a revision's older
   * one's) from the cache once read. What its revision links name is described too, to leave out
   * one the reviewer could not GET: its id, and the diff against it.
   */
  async show(assessmentId: string): Promise<OperatorAssessmentView> {
    const { ref, handle } = await this.find(assessmentId);
    const description = await this.describeInSight(handle, assessmentId);
    const memo = description.memo as unknown as AssessmentMemo;
    const [input, storedLinks] = await Promise.all([this.lookups.architectures.read(this.client, handle.workflowId), this.lookups.revisions?.(ref)]);
    const stored = storedLinks ?? { revisionOf: input.revisionOf ?? null, revisedBy: null };
    const [older, newer] = await Promise.all([this.linked(ref.organizationId, stored.revisionOf), this.linked(ref.organizationId, stored.revisedBy)]);
    const links = { revisionOf: older?.assessmentId ?? null, revisedBy: newer?.assessmentId ?? null };
    const revision = older && (await this.revisionOf(ref.organizationId, older, { graph: input.graph, findings: memo.findings }));
    return {
      ...toAssessmentResource(ref.assessmentId, memo, expiresAt(description.closeTime, this.options.retentionMs), links),
      organization_id: ref.organizationId,
      workflow_status: description.status.name,
      ...(memo.state?.claim ? { claim: memo.state.claim } : {}),
      ...(memo.state?.due_at ? { due_at: memo.state.due_at } : {}),
      context: input.context,
      graph: input.graph,
      ...(revision ? { revision } : {}),
    };
  }

  /**
   * The other end of a revision link (the same organisation's) if the reviewer could GET it: kept
   * and in sight. Otherwise the link is left out as if there were none, since an id they cannot
   * read tells them only what they may not know: that an assessment is hidden from them, or was
   * (one erased or past retention has no review state left to tell by).
   */
  private async linked(organizationId: string, assessmentId: string | null): Promise<LinkedAssessment | undefined> {
    if (assessmentId === null) return undefined;
    let memo: AssessmentMemo;
    try {
      memo = (await this.client.workflow.getHandle(assessmentWorkflowId(organizationId, assessmentId)).describe()).memo as unknown as AssessmentMemo;
    } catch (error) {
      if (isNotKept(error)) return undefined;
      throw error;
    }
    return (await this.inSight(assessmentId, memo.state)) ? { assessmentId, memo } : undefined;
  }

  /**
   * What a revision changed against the older assessment: its findings from its memo, its graph
   * from the cache. Undefined once it is no longer kept: describe() found it before the cache is
   * asked, so an erased graph is never shown.
   */
  private async revisionOf(organizationId: string, older: LinkedAssessment, newer: RevisionSide): Promise<AssessmentRevisionDiff | undefined> {
    let architecture: SubmittedArchitecture;
    try {
      architecture = await this.lookups.architectures.read(this.client, assessmentWorkflowId(organizationId, older.assessmentId));
    } catch (error) {
      if (isNotKept(error)) return undefined;
      throw error;
    }
    return revisionDiff(older.assessmentId, { graph: architecture.graph, findings: older.memo.findings }, newer);
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

  /**
   * Sight first: an assessment the reviewer may not see is never changed, and answers not found
   * rather than a refusal or a timeout. The workflow's checks alone would not do: claiming again
   * what one holds and releasing it go by the reviewer's name, which a credential issued again with
   * other groups keeps. A stage reached stays reached, so what was in sight at the describe still is
   * when the update lands. Without a sight to keep (every assessment in it), no describe.
   */
  private async update(
    assessmentId: string,
    send: (handle: WorkflowHandle) => Promise<AssessmentReviewSnapshot>,
  ): Promise<AssessmentReviewSnapshot> {
    const { handle } = await this.find(assessmentId);
    if (this.lookups.inSight) await this.describeInSight(handle, assessmentId);
    try {
      return await this.client.connection.withDeadline(Date.now() + this.options.updateTimeoutMs, () => send(handle));
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure && REFUSAL_CODES.has(error.cause.type ?? '')) {
        throw new ReviewRefusedError(error.cause.type as ReviewRefusalCode, error.cause.message);
      }
      // A closed workflow takes no update, and the server answers as if it did not exist: say why it is closed.
      if (error instanceof WorkflowNotFoundError) await refuseIfClosed(handle, assessmentId);
      if (isDeadlineExceeded(error)) {
        throw new ReviewUnconfirmedError(
          `No worker confirmed the action within ${Math.round(this.options.updateTimeoutMs / 1000)} s; check that a worker runs, then look with \`assay assessments show ${assessmentId}\` before retrying`,
        );
      }
      throw error;
    }
  }

  /** describe(), and not found, as one that does not exist, unless the reviewer may see it. */
  private async describeInSight(handle: WorkflowHandle, assessmentId: string): Promise<WorkflowExecutionDescription> {
    const description = await describe(handle, assessmentId);
    if (!(await this.inSight(assessmentId, (description.memo as unknown as AssessmentMemo).state))) throw new AssessmentNotFoundError(assessmentId);
    return description;
  }

  private inSight(assessmentId: string, state: AssessmentReviewSnapshot | undefined): Promise<boolean> {
    return this.lookups.inSight?.(assessmentId, state) ?? Promise.resolve(true);
  }

  private async find(assessmentId: string): Promise<{ ref: AssessmentWorkflowRef; handle: WorkflowHandle }> {
    const ref = isAssessmentId(assessmentId) ? await this.lookups.locate(assessmentId) : undefined;
    if (!ref) throw new AssessmentNotFoundError(assessmentId);
    return { ref, handle: this.client.workflow.getHandle(assessmentWorkflowId(ref.organizationId, ref.assessmentId)) };
  }
}

/** The index may still name a workflow that retention or an erasure has deleted since. */
async function describe(handle: WorkflowHandle, assessmentId: string): Promise<WorkflowExecutionDescription> {
  try {
    return await handle.describe();
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) throw new AssessmentNotFoundError(assessmentId);
    throw error;
  }
}

/** A workflow erased, or past retention: the server has no such execution. */
function isNotKept(error: unknown): boolean {
  return error instanceof WorkflowNotFoundError || isGrpcNotFound(error);
}

async function refuseIfClosed(handle: WorkflowHandle, assessmentId: string): Promise<void> {
  const description = await describe(handle, assessmentId);
  if (description.status.name === 'RUNNING') return;
  const review = (description.memo as unknown as AssessmentMemo).state?.review;
  if (review) {
    throw new ReviewRefusedError('ALREADY_COMPLETED', alreadyCompletedMessage(review));
  }
  throw new ReviewRefusedError('CLOSED', `The assessment's workflow is ${description.status.name}; it accepts no actions`);
}

/** The SDK wraps the deadline at different depths depending on where the call was when it expired. */
function isDeadlineExceeded(error: unknown): boolean {
  for (let current = error as { code?: number; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (current instanceof WorkflowUpdateRPCTimeoutOrCancelledError || current.code === GrpcStatus.DEADLINE_EXCEEDED) return true;
  }
  return false;
}
