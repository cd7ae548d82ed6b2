import { Injectable } from '@nestjs/common';
import type { PendingAssessment } from '../../contract/wire';
import { toPendingAssessment } from './pending-assessment';
import type { QueuePosition } from '../../common/storage/assessment-index-store';
import type { AssessmentIndexRow, ReviewPlacement } from '../../common/storage/tables';
import { assessmentWorkflowId, type AssessmentMemo, type AssessmentReviewSnapshot } from '../../contract';
import { ApiError } from '../platform/http/api-error';
import { ListCursors } from '../platform/listing/list-cursor';
import type { ListPage } from '../../contract/wire/listing';
import { AssessmentIndex } from './assessment-index';
import type { Reviewer } from '../platform/reviewers/reviewer-authenticator';
import { TemporalClients } from '../platform/temporal/temporal-clients';
import type { ReviewQueueRequest } from './review-queue.request';
import { ReviewerSight } from './reviewer-sight';

interface QueueLine {
  item: PendingAssessment;
  placement: ReviewPlacement;
  state: AssessmentReviewSnapshot | undefined;
}

/**
 * The review queue, a page at a time: the page's rows come from the review index in the queue's
 * order (earliest deadline first, then the oldest), narrowed by the filters in the same query, and
 * each is read from its workflow with describe(), exactly as GET reads it. A row the workflow
 * contradicts (a claim or close the index missed) is corrected, and dropped from the page when it
 * no longer meets the filters, so a page may hold fewer than `limit` items while `has_more` is
 * still right. The same goes for what the reviewer may not see (ReviewerSight): the query keeps
 * what the active stage says they may, the workflow's own stages decide. Nothing here lists
 * visibility, so a page costs `limit` describes and one indexed query however many assessments are
 * open.
 */
@Injectable()
export class ReviewQueue {
  constructor(
    private readonly index: AssessmentIndex,
    private readonly temporal: TemporalClients,
    private readonly cursors: ListCursors,
    private readonly sight: ReviewerSight,
  ) {}

  async page(reviewer: Reviewer, request: ReviewQueueRequest): Promise<ListPage<PendingAssessment>> {
    const { environment } = reviewer;
    const now = new Date().toISOString();
    const claimedBy = request.claimedByMe ? reviewer.name : undefined;
    const { stage, group } = request;
    // A cursor pages one environment's queue with the same filters (and, for claimed_by_me, the same reviewer).
    const scope = [
      'review-queue',
      environment,
      request.overdue ? 'overdue' : 'any deadline',
      claimedBy === undefined ? 'any claim' : `claimed by ${claimedBy}`,
      stage === undefined ? 'any stage' : `stage ${stage}`,
      group === undefined ? 'any group' : `group ${group}`,
    ].join('\n');
    const after = request.cursor === undefined ? undefined : parsePosition(await this.cursors.decode(request.cursor, scope));
    const sight = this.sight.queueSight(reviewer);
    const rows = await this.index.queuePage(environment, { after, claimedBy, stage, group, sight, dueBefore: request.overdue ? now : undefined, limit: request.limit + 1 });
    const pageRows = rows.slice(0, request.limit);
    const lines = await Promise.all(pageRows.map((row) => this.read(row)));
    const stillMatches = ({ placement, state }: QueueLine) =>
      this.sight.sees(reviewer, state, placement) &&
      (claimedBy === undefined || placement.claimedBy === claimedBy) &&
      (!request.overdue || placement.dueAt < now) &&
      (stage === undefined || placement.stage === stage) &&
      (group === undefined || placement.stageGroup === group);
    const data = lines
      .filter((line): line is QueueLine => line !== undefined)
      .filter(stillMatches)
      .map(({ item }) => item);
    const last = pageRows.at(-1);
    const hasMore = rows.length > request.limit && last !== undefined;
    return { data, has_more: hasMore, next_cursor: hasMore ? await this.cursors.encode(positionBytes(last), scope) : null };
  }

  /** The row's assessment as its workflow has it now; undefined once it has left the queue. */
  private async read(row: AssessmentIndexRow): Promise<QueueLine | undefined> {
    const description = await this.temporal.describe(row.environment, assessmentWorkflowId(row.organizationId, row.assessmentId));
    if (!description) {
      await this.index.forget(row.environment, row);
      return undefined;
    }
    const memo = description.memo as unknown as AssessmentMemo;
    const placement = await this.index.reconcile(row, { state: memo.state, closeTime: description.closeTime });
    return placement.closedAt === null ? { item: toPendingAssessment(row, memo, placement), placement, state: memo.state } : undefined;
  }
}

function positionBytes(row: AssessmentIndexRow): Uint8Array {
  const position: QueuePosition = { dueAt: row.dueAt, createdAt: row.createdAt, assessmentId: row.assessmentId };
  return Buffer.from(JSON.stringify(position));
}

/** The cursor is signed, so its position is one this service wrote; the shape is checked all the same. */
function parsePosition(bytes: Uint8Array): QueuePosition {
  const position = JSON.parse(Buffer.from(bytes).toString('utf8')) as Partial<QueuePosition> | null;
  if (typeof position?.dueAt !== 'string' || typeof position.createdAt !== 'string' || typeof position.assessmentId !== 'string') {
    throw ApiError.invalidRequest('cursor: not a cursor of the review queue');
  }
  return { dueAt: position.dueAt, createdAt: position.createdAt, assessmentId: position.assessmentId };
}
