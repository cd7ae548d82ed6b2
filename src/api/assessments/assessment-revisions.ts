import { Injectable } from '@nestjs/common';
import type { AssessmentWorkflowRef } from '../../common/ids/assessment-ids';
import type { KeyEnvironment } from '../../common/keys/api-key';
import { AssessmentRevisionStore } from '../../common/storage/assessment-revision-store';
import type { AssessmentRevisionRow } from '../../common/storage/tables';
import { ApiError } from '../platform/http/api-error';
import { AssessmentWorkflowReader } from './assessment-workflow-reader';

/**
 * A link whose revision never started (its create failed after recording it, and was not retried)
 * stops blocking other revisions once it is this old: far longer than a create takes.
 */
export const ABANDONED_REVISION_AFTER_MS = 10 * 60_000;

/** What a create with `revision_of` must do before it starts its workflow, and undo if it then does not. */
export interface RevisionReservation {
  /** Whether this create wrote the link (a retried create finds it written). */
  recorded: boolean;
  row: AssessmentRevisionRow;
}

const MAX_ATTEMPTS = 3;

function notAllowed(message: string): ApiError {
  return new ApiError(409, 'REVISION_NOT_ALLOWED', message);
}

function alreadyRevised(revisionOf: string, revisedBy: string): ApiError {
  return notAllowed(`Assessment ${revisionOf} is already revised by ${revisedBy}; an assessment is revised once (revise ${revisedBy} once its review requests changes)`);
}

/**
 * The create side of revisions (docs/api.md, Network assessment): the assessment revised must be
 * the caller's, in its environment, with a review that requested changes, and revised by nothing
 * else. The link is written before the revision's workflow starts, so a crash between the two
 * loses nothing: a retry with the same Idempotency-Key finds its own link and goes on.
 */
@Injectable()
export class AssessmentRevisions {
  constructor(
    private readonly store: AssessmentRevisionStore,
    private readonly reader: AssessmentWorkflowReader,
  ) {}

  async reserve(environment: KeyEnvironment, revision: AssessmentWorkflowRef, revisionOf: string): Promise<RevisionReservation> {
    const row: AssessmentRevisionRow = { environment, ...revision, revisionOf, createdAt: new Date().toISOString() };
    const revised = { organizationId: revision.organizationId, assessmentId: revisionOf };
    // Again only after dropping a link that a failed create left, or losing a race to write one.
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const holder = await this.store.revisionOf(environment, revised);
      if (holder?.assessmentId === revision.assessmentId) return { recorded: false, row: holder };
      if (holder) {
        if (!(await this.abandoned(holder))) throw alreadyRevised(revisionOf, holder.assessmentId);
        await this.store.drop(holder);
        continue;
      }
      await this.checkRevisable(environment, revised);
      if (await this.store.record(row)) return { recorded: true, row };
      // Not written: another create revises it since a moment ago (the next round says so), or this
      // assessment id already revises another, an Idempotency-Key reused with another revision_of.
      // When that create started its workflow, the start answers the reuse (422); else its link
      // never became a revision and goes.
      const earlier = await this.store.revisedFrom(environment, revision);
      if (!earlier || earlier.revisionOf === revisionOf) continue;
      if (await this.started(earlier)) return { recorded: false, row };
      await this.store.drop(earlier);
    }
    throw new ApiError(503, 'SERVICE_UNAVAILABLE', `Assessment ${revisionOf} is being revised by another request; retry shortly`, { 'retry-after': '1' });
  }

  /** After the start refused this create (its Idempotency-Key names another request): its own link goes. */
  async release(reservation: RevisionReservation): Promise<void> {
    if (reservation.recorded) await this.store.drop(reservation.row);
  }

  /** After an erasure: the assessment's links both ways go, so what it revised can be revised again. */
  forget(environment: KeyEnvironment, assessment: AssessmentWorkflowRef): Promise<void> {
    return this.store.removeAssessment(environment, assessment);
  }

  /** The assessment must exist for the caller and have been completed with changes requested. */
  private async checkRevisable(environment: KeyEnvironment, revised: AssessmentWorkflowRef): Promise<void> {
    const found = await this.reader.readWorkflow(environment, revised.organizationId, revised.assessmentId);
    if (!found) throw ApiError.notFound(`Assessment ${revised.assessmentId} (revision_of)`);
    const { status, review } = found.resource;
    if (!review) {
      throw notAllowed(`Assessment ${revised.assessmentId} is ${status}, not reviewed yet; only an assessment whose review requested changes (changes_requested) can be revised`);
    }
    if (review.verdict !== 'changes_requested') {
      throw notAllowed(`Assessment ${revised.assessmentId} was ${review.verdict}; only an assessment whose review requested changes (changes_requested) can be revised`);
    }
  }

  /** Old enough, and its revision's workflow does not exist: the create that wrote it failed and was never retried. */
  private async abandoned(row: AssessmentRevisionRow): Promise<boolean> {
    return Date.now() - Date.parse(row.createdAt) >= ABANDONED_REVISION_AFTER_MS && !(await this.started(row));
  }

  private async started(row: AssessmentRevisionRow): Promise<boolean> {
    return (await this.reader.readWorkflow(row.environment, row.organizationId, row.assessmentId)) !== undefined;
  }
}
