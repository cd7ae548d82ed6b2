import type { Kysely } from 'kysely';
import type { AssessmentWorkflowRef } from '../ids/assessment-ids';
import type { KeyEnvironment } from '../keys/api-key';
import type { AssessmentIndexRow, ReviewPlacement, Tables } from './tables';

/** A row's place in the queue's order: earliest deadline first, then the oldest, then the id, so no two rows tie. */
export interface QueuePosition {
  dueAt: string;
  createdAt: string;
  assessmentId: string;
}

/** The rows a reviewer may see, as far as the active stage tells (ReviewerSight.queueSight). */
export interface QueueSight {
  /** Rows whose active stage has one of these names. */
  stages: readonly string[];
  /** Rows whose active stage belongs to one of these groups; a stage without a group is always in sight. */
  groups: readonly string[];
}

export interface QueuePageRequest {
  /** Rows strictly after this position. */
  after?: QueuePosition;
  /** Only rows due before this instant (overdue ones). */
  dueBefore?: string;
  /** Only rows this reviewer holds. */
  claimedBy?: string;
  /** Only rows whose active stage has this name. */
  stage?: string;
  /** Only rows whose active stage belongs to this reviewer group. */
  group?: string;
  /** Only rows in this sight. */
  sight?: QueueSight;
  limit: number;
}

// SQLite binds at most 32,766 variables per statement; nine columns a row.
const ROWS_PER_INSERT = 1_000;

/**
 * The review index: one row per assessment, written when it is created, moved when a reviewer acts
 * through the API, and caught up from visibility for assessments the API did not record. A page of
 * the queue is a range of one of its partial indexes, so it costs the same with a hundred open
 * assessments or a hundred thousand.
 */
export class AssessmentIndexStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /**
   * Adds the rows not yet indexed; a row already there keeps what it has, which is never older,
   * except that an open row nobody has told its stage yet (indexed before stages were, or while
   * its checks ran) takes the stage and group of the added one.
   */
  async add(rows: readonly AssessmentIndexRow[]): Promise<void> {
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      await this.db
        .insertInto('assessmentIndex')
        .values(rows.slice(start, start + ROWS_PER_INSERT))
        .onConflict((conflict) =>
          conflict
            .columns(['environment', 'assessmentId'])
            .doUpdateSet(({ ref }) => ({ stage: ref('excluded.stage'), stageGroup: ref('excluded.stageGroup') }))
            .where('assessmentIndex.stage', 'is', null)
            .where('assessmentIndex.closedAt', 'is', null)
            .where(({ eb, ref }) => eb(ref('excluded.stage'), 'is not', null)),
        )
        .execute();
    }
  }

  async find(environment: KeyEnvironment, assessmentId: string): Promise<AssessmentIndexRow | undefined> {
    return this.db.selectFrom('assessmentIndex').selectAll().where('environment', '=', environment).where('assessmentId', '=', assessmentId).executeTakeFirst();
  }

  async place(environment: KeyEnvironment, assessmentId: string, placement: ReviewPlacement): Promise<void> {
    await this.db.updateTable('assessmentIndex').set(placement).where('environment', '=', environment).where('assessmentId', '=', assessmentId).execute();
  }

  async remove(environment: KeyEnvironment, ref: AssessmentWorkflowRef): Promise<void> {
    await this.db
      .deleteFrom('assessmentIndex')
      .where('environment', '=', environment)
      .where('assessmentId', '=', ref.assessmentId)
      .where('organizationId', '=', ref.organizationId)
      .execute();
  }

  /** Open rows in the queue's order, after `after`, narrowed by the request's filters. */
  async queuePage(environment: KeyEnvironment, request: QueuePageRequest): Promise<AssessmentIndexRow[]> {
    return queuePageQuery(this.db, environment, request).execute();
  }

  async indexedUntil(environment: KeyEnvironment): Promise<string | undefined> {
    const row = await this.db.selectFrom('assessmentIndexProgress').select('indexedUntil').where('environment', '=', environment).executeTakeFirst();
    return row?.indexedUntil;
  }

  /** Moves the mark forward only: a catch-up that started earlier and ended later must not move it back. */
  async advanceIndexedUntil(environment: KeyEnvironment, indexedUntil: string): Promise<void> {
    await this.db
      .insertInto('assessmentIndexProgress')
      .values({ environment, indexedUntil })
      .onConflict((conflict) => conflict.column('environment').doUpdateSet({ indexedUntil }).where('assessmentIndexProgress.indexedUntil', '<', indexedUntil))
      .execute();
  }

  /** Rows of assessments closed before `before`: the namespace no longer keeps their workflows. */
  async removeClosedBefore(environment: KeyEnvironment, before: string): Promise<void> {
    await this.db.deleteFrom('assessmentIndex').where('environment', '=', environment).where('closedAt', '<', before).execute();
  }
}

/** The query behind a page, apart so a test can ask the database how it runs it (a range of one index, no sort). */
export function queuePageQuery(db: Kysely<Tables>, environment: KeyEnvironment, request: QueuePageRequest) {
  let query = db.selectFrom('assessmentIndex').selectAll().where('environment', '=', environment).where('closedAt', 'is', null);
  if (request.claimedBy !== undefined) query = query.where('claimedBy', '=', request.claimedBy);
  if (request.stage !== undefined) query = query.where('stage', '=', request.stage);
  if (request.group !== undefined) query = query.where('stageGroup', '=', request.group);
  if (request.dueBefore !== undefined) query = query.where('dueAt', '<', request.dueBefore);
  const sight = request.sight;
  if (sight) {
    // `in ()` is not SQL: an empty list is left out.
    query = query.where(({ eb, or }) =>
      or([
        eb('stageGroup', 'is', null),
        ...(sight.groups.length > 0 ? [eb('stageGroup', 'in', [...sight.groups])] : []),
        ...(sight.stages.length > 0 ? [eb('stage', 'in', [...sight.stages])] : []),
      ]),
    );
  }
  const after = request.after;
  if (after) {
    query = query.where(({ eb, refTuple, tuple }) => eb(refTuple('dueAt', 'createdAt', 'assessmentId'), '>', tuple(after.dueAt, after.createdAt, after.assessmentId)));
  }
  return query.orderBy('dueAt').orderBy('createdAt').orderBy('assessmentId').limit(request.limit);
}
