import type { Kysely } from 'kysely';
import type { AssessmentWorkflowRef } from '../ids/assessment-ids';
import type { KeyEnvironment } from '../keys/api-key';
import type { AssessmentRevisionRow, Tables } from './tables';

/** Both ways of one assessment: what it revises and what revises it, null when nothing. */
export interface RevisionLinks {
  revisionOf: string | null;
  revisedBy: string | null;
}

export const NO_REVISION_LINKS: RevisionLinks = Object.freeze({ revisionOf: null, revisedBy: null });

/**
 * The revision links (docs/api.md, Network assessment): written by the create before the
 * revision's workflow starts, so they outlive both workflows' closes. An assessment revises at
 * most one other (the primary key) and is revised by at most one (a unique index), which is what
 * keeps two concurrent creates from both revising it.
 */
export class AssessmentRevisionStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /**
   * Records the link unless either end is taken; an identical row already there (a retried create)
   * is kept as it is. Returns whether this call wrote it.
   */
  async record(row: AssessmentRevisionRow): Promise<boolean> {
    const result = await this.db.insertInto('assessmentRevisions').values(row).onConflict((conflict) => conflict.doNothing()).executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** The row of the assessment that revises `ref`, if any. */
  revisionOf(environment: KeyEnvironment, ref: AssessmentWorkflowRef): Promise<AssessmentRevisionRow | undefined> {
    return this.rowWhere('revisionOf', environment, ref);
  }

  /** The row in which `ref` is the revision, if any. */
  revisedFrom(environment: KeyEnvironment, ref: AssessmentWorkflowRef): Promise<AssessmentRevisionRow | undefined> {
    return this.rowWhere('assessmentId', environment, ref);
  }

  private rowWhere(column: 'revisionOf' | 'assessmentId', environment: KeyEnvironment, ref: AssessmentWorkflowRef): Promise<AssessmentRevisionRow | undefined> {
    return this.db
      .selectFrom('assessmentRevisions')
      .selectAll()
      .where('environment', '=', environment)
      .where('organizationId', '=', ref.organizationId)
      .where(column, '=', ref.assessmentId)
      .executeTakeFirst();
  }

  /** One assessment's links. */
  async links(environment: KeyEnvironment, ref: AssessmentWorkflowRef): Promise<RevisionLinks> {
    return (await this.linksOf(environment, ref.organizationId, [ref.assessmentId])).get(ref.assessmentId) ?? NO_REVISION_LINKS;
  }

  /** Each assessment's links, for a page of them: one query whatever the page's size. */
  async linksOf(environment: KeyEnvironment, organizationId: string, assessmentIds: readonly string[]): Promise<Map<string, RevisionLinks>> {
    const links = new Map<string, RevisionLinks>(assessmentIds.map((id) => [id, { revisionOf: null, revisedBy: null }]));
    if (assessmentIds.length === 0) return links;
    const rows = await this.db
      .selectFrom('assessmentRevisions')
      .select(['assessmentId', 'revisionOf'])
      .where('environment', '=', environment)
      .where('organizationId', '=', organizationId)
      .where((where) => where.or([where('assessmentId', 'in', assessmentIds), where('revisionOf', 'in', assessmentIds)]))
      .execute();
    for (const row of rows) {
      const revision = links.get(row.assessmentId);
      if (revision) revision.revisionOf = row.revisionOf;
      const revised = links.get(row.revisionOf);
      if (revised) revised.revisedBy = row.assessmentId;
    }
    return links;
  }

  /** Drops exactly this row (a create that recorded it and then did not start its workflow). */
  async drop(row: Pick<AssessmentRevisionRow, 'environment' | 'organizationId' | 'assessmentId' | 'revisionOf'>): Promise<void> {
    await this.db
      .deleteFrom('assessmentRevisions')
      .where('environment', '=', row.environment)
      .where('organizationId', '=', row.organizationId)
      .where('assessmentId', '=', row.assessmentId)
      .where('revisionOf', '=', row.revisionOf)
      .execute();
  }

  /** An erased assessment's links, both ways: what it revised may be revised again. */
  async removeAssessment(environment: KeyEnvironment, ref: AssessmentWorkflowRef): Promise<void> {
    await this.db
      .deleteFrom('assessmentRevisions')
      .where('environment', '=', environment)
      .where('organizationId', '=', ref.organizationId)
      .where((where) => where.or([where('assessmentId', '=', ref.assessmentId), where('revisionOf', '=', ref.assessmentId)]))
      .execute();
  }
}
