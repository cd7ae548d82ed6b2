import { Injectable, Logger } from '@nestjs/common';
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { AppConfig } from '../../common/config/app-config';
import { parseAssessmentWorkflowId } from '../../common/ids/assessment-ids';
import type { KeyEnvironment } from '../../common/keys/api-key';
import { indexRow } from './review-placement';
import { AssessmentIndexStore } from '../../common/storage/assessment-index-store';
import type { AssessmentIndexRow } from '../../common/storage/tables';
import { equals, notEquals, quote, visibilityQuery } from '../../common/visibility/visibility-query';
import { ASSESSMENT_WORKFLOW_TYPE, type AssessmentMemo } from '../../contract';
import { TemporalClients } from '../platform/temporal/temporal-clients';

// A workflow started just before a catch-up can reach visibility after it, and the server's clock
// (StartTime) is not this process's: each catch-up looks this far back past the last one's start.
const LOOK_BACK_MS = 60_000;
// How stale the index may be about assessments the API did not record as it created them (an
// older API still running during a rollout, or one that stopped between start and record).
const REFRESH_EVERY_MS = 60_000;
const LISTING_PAGE_SIZE = 1_000;

/** The review index's one logger, for the catch-up and the index alike. */
export const indexLogger = new Logger('AssessmentIndex');

/**
 * Brings the review index up to date with visibility: every assessment started since the last
 * catch-up (all of them, the first time: the assessments created before the index existed) gets a
 * row if it has none. Rows already there keep what they hold, which is never older than a listing.
 * The mark of how far the index goes is kept in the database, so the full listing runs once per
 * environment, not once per process.
 */
@Injectable()
export class AssessmentIndexCatchUp {
  private readonly running = new Map<KeyEnvironment, Promise<void>>();
  private readonly lastStartedAt = new Map<KeyEnvironment, number>();
  /** Environments this process has seen caught up once: the mark only moves forward, so they need not ask again. */
  private readonly caughtUp = new Set<KeyEnvironment>();

  constructor(
    private readonly temporal: TemporalClients,
    private readonly store: AssessmentIndexStore,
    private readonly config: AppConfig,
  ) {}

  /**
   * Before reading the queue: an environment never caught up is caught up first (the queue would
   * miss what came before the index); otherwise a catch-up a minute old starts in the background.
   */
  async ensureFresh(environment: KeyEnvironment): Promise<void> {
    if (!this.caughtUp.has(environment) && (await this.store.indexedUntil(environment)) === undefined) await this.run(environment);
    this.caughtUp.add(environment);
    if (Date.now() - (this.lastStartedAt.get(environment) ?? 0) < REFRESH_EVERY_MS) return;
    this.run(environment).catch((error: unknown) => indexLogger.warn(`catching up the review index of ${environment} failed: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** One catch-up at a time per environment in this process; a caller arriving meanwhile waits for it. */
  run(environment: KeyEnvironment): Promise<void> {
    const existing = this.running.get(environment);
    if (existing) return existing;
    const run = this.catchUp(environment).finally(() => this.running.delete(environment));
    this.running.set(environment, run);
    return run;
  }

  private async catchUp(environment: KeyEnvironment): Promise<void> {
    const startedAt = new Date();
    this.lastStartedAt.set(environment, startedAt.getTime());
    const indexedUntil = await this.store.indexedUntil(environment);
    const clauses = [equals('WorkflowType', ASSESSMENT_WORKFLOW_TYPE)];
    if (indexedUntil !== undefined) clauses.push(`StartTime >= ${quote(new Date(Date.parse(indexedUntil) - LOOK_BACK_MS).toISOString())}`);
    // Open runs first: after an operator's reset the replaced run is closed beside the current
    // one, and the first row written for an assessment id is the one that stays.
    for (const status of [equals('ExecutionStatus', 'Running'), notEquals('ExecutionStatus', 'Running')]) await this.indexListed(environment, visibilityQuery([...clauses, status]));
    await this.store.advanceIndexedUntil(environment, startedAt.toISOString());
    await this.store.removeClosedBefore(environment, new Date(startedAt.getTime() - this.temporal.retentionMs).toISOString());
  }

  /** A page at a time, each page under the usual RPC deadline, however long the whole listing takes. */
  private async indexListed(environment: KeyEnvironment, query: string): Promise<void> {
    let pageToken: Uint8Array | undefined;
    do {
      const page = await this.temporal.listExecutions(environment, query, LISTING_PAGE_SIZE, pageToken);
      await this.store.add(page.executions.flatMap((execution) => this.rowOf(environment, execution) ?? []));
      pageToken = page.nextPageToken;
    } while (pageToken);
  }

  private rowOf(environment: KeyEnvironment, execution: WorkflowExecutionInfo): AssessmentIndexRow | undefined {
    const ref = parseAssessmentWorkflowId(execution.workflowId);
    if (!ref) return undefined;
    const memo = execution.memo as unknown as AssessmentMemo | undefined;
    const createdAt = memo?.created_at ?? execution.startTime.toISOString();
    // The memo's state names the active stage and its group. One whose checks still run has published
    // none yet: it is most likely in the first stage of the pipeline configured now, and the first
    // queue page that shows it reads the workflow's own.
    return indexRow(environment, ref, createdAt, this.config.reviewPipelines[environment].stages[0], { state: memo?.state, closeTime: execution.closeTime });
  }
}
