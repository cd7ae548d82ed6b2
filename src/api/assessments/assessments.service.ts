import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../common/config/app-config';
import { ApiError } from '../platform/http/api-error';
import type { Caller } from '../platform/keys/key-authenticator';
import { TemporalClients } from '../platform/temporal/temporal-clients';
import { startOnce, type OnceStartedKind } from '../platform/temporal/start-once';
import { requestHash } from '../../common/request-hash';
import type { assessmentWorkflow } from '../../../workflows';
import {
  ASSESSMENT_STATUSES,
  ASSESSMENT_WORKFLOW_TYPE,
  assessmentWorkflowId,
  ORGANIZATION_SEARCH_ATTRIBUTE,
  outcomeEventId,
  REVIEW_VERDICTS,
  reviewOutcomeName,
  type AssessmentMemo,
  type AssessmentStatus,
} from '../../contract';
import { WorkflowEraser } from '../platform/erasure/workflow-eraser';
import { ListCursors } from '../platform/listing/list-cursor';
import { listResources } from '../platform/listing/list-resources';
import type { ListPage } from '../../contract/wire/listing';
import { parseListRequest } from '../platform/listing/list-request';
import { notEquals } from '../../common/visibility/visibility-query';
import { assessmentIdForIdempotencyKey, isAssessmentId, newAssessmentId, parseAssessmentWorkflowId } from '../../common/ids/assessment-ids';
import { toAssessmentResource } from '../../common/resources/assessment-resource';
import { AssessmentWorkflowReader, type AssessmentLookup } from './assessment-workflow-reader';
import { PreferWaits, type HeldAnswer } from '../platform/waits/prefer-waits';
import type { WatchedState } from '../platform/waits/workflow-state-wait';
import { parseCreateAssessmentRequest } from './create-assessment.request';
import { AssessmentIndex } from '../review/assessment-index';
import { SubmittedArchitectures } from '../review/submitted-architectures';
import { AssessmentRevisions } from './assessment-revisions';
import type { Assessment } from '../../contract/wire';

export interface CreatedAssessment {
  assessment: Assessment;
  replayed: boolean;
}

// Every transition sets updated_at; only completion is final.
const ASSESSMENT_CHANGES: WatchedState<Assessment> = { stateOf: (assessment) => `${assessment.status} ${assessment.updated_at}`, isFinal: (assessment) => assessment.status === 'completed' };

const ASSESSMENTS: OnceStartedKind = {
  noun: 'assessment',
  workflowType: ASSESSMENT_WORKFLOW_TYPE,
  newId: newAssessmentId,
  idForIdempotencyKey: assessmentIdForIdempotencyKey,
  workflowId: assessmentWorkflowId,
};

@Injectable()
export class AssessmentsService {
  constructor(
    private readonly temporal: TemporalClients,
    private readonly reader: AssessmentWorkflowReader,
    private readonly cursors: ListCursors,
    private readonly config: AppConfig,
    private readonly eraser: WorkflowEraser,
    private readonly waits: PreferWaits,
    private readonly index: AssessmentIndex,
    private readonly architectures: SubmittedArchitectures,
    private readonly revisions: AssessmentRevisions,
  ) {}

  async create(caller: Caller, body: unknown, idempotencyKey: string | undefined): Promise<CreatedAssessment> {
    const request = parseCreateAssessmentRequest(body);
    const memo: AssessmentMemo = { created_at: new Date().toISOString(), name: request.name, request_hash: requestHash(request) };
    // Chosen here rather than by startOnce: a revision's link is recorded under it before the start.
    const id = idempotencyKey ? assessmentIdForIdempotencyKey(caller.organizationId, idempotencyKey) : newAssessmentId();
    const reservation = request.revisionOf === undefined ? undefined : await this.revisions.reserve(caller.environment, { organizationId: caller.organizationId, assessmentId: id }, request.revisionOf);
    // Fixed into the workflow, so a later change of REVIEW_PIPELINES never moves a running review.
    const pipeline = this.config.reviewPipelines[caller.environment];
    const [firstStage] = pipeline.stages;
    const started = await startOnce<typeof assessmentWorkflow, Assessment>(this.temporal, { ...ASSESSMENTS, newId: () => id, idForIdempotencyKey: () => id }, {
      caller,
      idempotencyKey,
      memo,
      options: (assessmentId) => ({
        args: [
          {
            assessmentId,
            organizationId: caller.organizationId,
            ...request,
            sla: { claimWithinMs: firstStage.claimWithinMs, reviewWithinMs: firstStage.reviewWithinMs },
            pipeline,
          },
        ],
        typedSearchAttributes: [{ key: ORGANIZATION_SEARCH_ATTRIBUTE, value: caller.organizationId }],
      }),
      readExisting: (assessmentId) => this.reader.read(caller.environment, caller.organizationId, assessmentId),
    }).catch(async (error: unknown) => {
      // The key names another request's assessment, which this link is no part of.
      if (reservation && error instanceof ApiError && error.code === 'IDEMPOTENCY_KEY_REUSED') await this.revisions.release(reservation);
      throw error;
    });
    if (started.replayed) return { assessment: started.resource, replayed: true };
    await this.index.recordCreated(caller.environment, { organizationId: caller.organizationId, assessmentId: started.id }, memo.created_at);
    return { assessment: toAssessmentResource(started.id, memo, null, { revisionOf: request.revisionOf ?? null, revisedBy: null }), replayed: false };
  }

  /** The caller's assessments (open first, then the latest completed); `completed` is exact in visibility, the open statuses are told apart per item. */
  list(caller: Caller, query: unknown): Promise<ListPage<Assessment>> {
    const request = parseListRequest<AssessmentStatus>(query, ASSESSMENT_STATUSES);
    return listResources(this.temporal, this.cursors, caller, request, {
      workflowType: ASSESSMENT_WORKFLOW_TYPE,
      // A run that completed was reviewed; one an operator closed keeps the state it last published.
      statusClauses: (status) => [notEquals('ExecutionStatus', status === 'completed' ? 'Running' : 'Completed')],
      read: async (workflowId) => {
        const ref = parseAssessmentWorkflowId(workflowId);
        return ref ? this.reader.read(caller.environment, caller.organizationId, ref.assessmentId) : undefined;
      },
    });
  }

  async get(caller: Caller, assessmentId: string): Promise<Assessment> {
    return (await this.find(caller, assessmentId)).resource;
  }

  /** A GET's `Prefer: wait`: the assessment once it moved (every transition sets updated_at), it is completed, or `seconds` pass. */
  getWhenChanged(caller: Caller, assessmentId: string, seconds: number | undefined): Promise<HeldAnswer<Assessment>> {
    return this.waits.untilChanged(caller, seconds, assessmentWorkflowId(caller.organizationId, assessmentId), () => this.find(caller, assessmentId), ASSESSMENT_CHANGES);
  }

  private async find(caller: Caller, assessmentId: string): Promise<AssessmentLookup> {
    const found = isAssessmentId(assessmentId) ? await this.reader.read(caller.environment, caller.organizationId, assessmentId) : undefined;
    if (!found) throw ApiError.notFound(`Assessment ${assessmentId}`);
    return found;
  }

  /** Erases the assessment (WorkflowEraser): whether it is gone yet; an id the caller has no assessment by is 404. */
  async erase(caller: Caller, assessmentId: string): Promise<boolean> {
    if (!isAssessmentId(assessmentId)) throw ApiError.notFound(`Assessment ${assessmentId}`);
    const erasure = await this.eraser.erase({
      environment: caller.environment,
      organizationId: caller.organizationId,
      workflowId: assessmentWorkflowId(caller.organizationId, assessmentId),
      eventIds: REVIEW_VERDICTS.map((verdict) => outcomeEventId(assessmentId, reviewOutcomeName(verdict))),
    });
    if (erasure === 'unknown') throw ApiError.notFound(`Assessment ${assessmentId}`);
    this.reader.forget(caller.environment, caller.organizationId, assessmentId);
    this.architectures.forget(this.temporal.namespaceFor(caller.environment), assessmentWorkflowId(caller.organizationId, assessmentId));
    await this.index.forget(caller.environment, { organizationId: caller.organizationId, assessmentId });
    await this.revisions.forget(caller.environment, { organizationId: caller.organizationId, assessmentId });
    return erasure === 'erased';
  }
}
