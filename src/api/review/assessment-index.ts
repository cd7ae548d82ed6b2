import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../common/config/app-config';
import type { AssessmentWorkflowRef } from '../../common/ids/assessment-ids';
import type { KeyEnvironment } from '../../common/keys/api-key';
import { indexRow, placementOf, samePlacement, type ReviewedWorkflow } from './review-placement';
import { AssessmentIndexStore, type QueuePageRequest } from '../../common/storage/assessment-index-store';
import type { AssessmentIndexRow, ReviewPlacement } from '../../common/storage/tables';
import type { AssessmentReviewSnapshot } from '../../contract';
import { AssessmentIndexCatchUp, indexLogger } from './assessment-index-catch-up';

/**
 * The API's review index (docs/architecture.md, The review index): which organisation each
 * assessment id belongs to and where it stands in the queue. The API writes it as it creates an
 * assessment and as reviewers act; what happens behind its back (an operator's terminate or reset,
 * an assessment an older API created) is caught up from visibility and from the workflow itself
 * whenever a queue page reads it.
 */
@Injectable()
export class AssessmentIndex {
  constructor(
    private readonly store: AssessmentIndexStore,
    private readonly catchUp: AssessmentIndexCatchUp,
    private readonly config: AppConfig,
  ) {}

  /**
   * A new assessment, so it is in the queue at the next refresh. The workflow has started by now:
   * a failure to write is logged, not answered, and the next catch-up writes the row instead.
   * The row starts in the first stage of the environment's pipeline, which the API has just put
   * into the workflow from the same configuration, so the stage and group filters find it at once.
   */
  async recordCreated(environment: KeyEnvironment, ref: AssessmentWorkflowRef, createdAt: string): Promise<void> {
    const row = indexRow(environment, ref, createdAt, this.config.reviewPipelines[environment].stages[0], { state: undefined, closeTime: undefined });
    await this.store.add([row]).catch((error: unknown) => indexLogger.warn(`could not index assessment ${ref.assessmentId}: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** A reviewer's action through the API, on the row it located the assessment with: the workflow's answer says where it stands now. */
  async recordReview(row: AssessmentIndexRow, snapshot: AssessmentReviewSnapshot): Promise<void> {
    await this.reconcile(row, { state: snapshot, closeTime: undefined });
  }

  /** The row of an assessment id; one the index does not hold yet is looked for in visibility since the last catch-up. */
  async locate(environment: KeyEnvironment, assessmentId: string): Promise<AssessmentIndexRow | undefined> {
    const row = await this.store.find(environment, assessmentId);
    if (row) return row;
    await this.catchUp.run(environment);
    return this.store.find(environment, assessmentId);
  }

  /** Open rows in the queue's order; see AssessmentIndexCatchUp.ensureFresh for how current they are. */
  async queuePage(environment: KeyEnvironment, request: QueuePageRequest): Promise<AssessmentIndexRow[]> {
    await this.catchUp.ensureFresh(environment);
    return this.store.queuePage(environment, request);
  }

  /** Moves the row to where the workflow's own state puts it, when they differ; returns that place. */
  async reconcile(row: AssessmentIndexRow, workflow: ReviewedWorkflow): Promise<ReviewPlacement> {
    const placement = placementOf(workflow, row);
    if (!samePlacement(row, placement)) await this.store.place(row.environment, row.assessmentId, placement);
    return placement;
  }

  /** Its workflow is gone (erased, or past retention). */
  async forget(environment: KeyEnvironment, ref: AssessmentWorkflowRef): Promise<void> {
    await this.store.remove(environment, ref);
  }
}
