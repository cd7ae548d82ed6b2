import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { AppConfig } from '../../common/config/app-config';
import { ApiError } from '../http/api-error';
import type { Caller } from '../keys/key-authenticator';
import { TemporalClients } from '../temporal/temporal-clients';
import type { assessmentWorkflow } from '../../../workflows';
import { ASSESSMENT_WORKFLOW_TYPE, assessmentWorkflowId, ORGANIZATION_SEARCH_ATTRIBUTE, type AssessmentMemo, type AssessmentStatus } from '../../contract';
import { listResources, type ListPage } from '../listing/list-resources';
import { parseListRequest } from '../listing/list-request';
import { notEquals } from '../../common/visibility/visibility-query';
import { assessmentIdForIdempotencyKey, isAssessmentId, newAssessmentId, parseAssessmentWorkflowId } from '../../common/ids/assessment-ids';
import { toAssessmentResource, type AssessmentResource } from '../../common/resources/assessment-resource';
import { AssessmentWorkflowReader } from './assessment-workflow-reader';
import { parseCreateAssessmentRequest } from './create-assessment.request';

export interface CreatedAssessment {
  assessment: AssessmentResource;
  replayed: boolean;
}

@Injectable()
export class AssessmentsService {
  constructor(
    private readonly temporal: TemporalClients,
    private readonly reader: AssessmentWorkflowReader,
    private readonly config: AppConfig,
  ) {}

  async create(caller: Caller, body: unknown, idempotencyKey: string | undefined): Promise<CreatedAssessment> {
    const request = parseCreateAssessmentRequest(body);
    const assessmentId = idempotencyKey ? assessmentIdForIdempotencyKey(caller.organizationId, idempotencyKey) : newAssessmentId();
    const memo: AssessmentMemo = {
      created_at: new Date().toISOString(),
      name: request.name,
      request_hash: createHash('sha256').update(JSON.stringify(request)).digest('hex'),
    };
    try {
      await this.temporal.withDeadline(() =>
        this.temporal.workflows(caller.environment).start<typeof assessmentWorkflow>(ASSESSMENT_WORKFLOW_TYPE, {
          taskQueue: this.temporal.taskQueue,
          workflowId: assessmentWorkflowId(caller.organizationId, assessmentId),
          // As for tasks: a retry with the same Idempotency-Key finds the first assessment for as long as the namespace retains it.
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          args: [
            {
              assessmentId,
              organizationId: caller.organizationId,
              ...request,
              sla: { claimWithinMs: this.config.values.ASSESSMENT_CLAIM_SLA, reviewWithinMs: this.config.values.ASSESSMENT_REVIEW_SLA },
            },
          ],
          memo: { ...memo },
          typedSearchAttributes: [{ key: ORGANIZATION_SEARCH_ATTRIBUTE, value: caller.organizationId }],
        }),
      );
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) return this.replay(caller, assessmentId, memo.request_hash);
      throw error;
    }
    return { assessment: toAssessmentResource(assessmentId, memo), replayed: false };
  }

  /** The caller's assessments (open first, then the latest completed); `completed` is exact in visibility, the open statuses are told apart per item. */
  list(caller: Caller, query: unknown): Promise<ListPage<AssessmentResource>> {
    const request = parseListRequest<AssessmentStatus>(query, ['submitted', 'under_review', 'completed']);
    return listResources(this.temporal, caller, request, {
      workflowType: ASSESSMENT_WORKFLOW_TYPE,
      // A run that completed was reviewed; one an operator closed keeps the state it last published.
      statusClauses: (status) => [notEquals('ExecutionStatus', status === 'completed' ? 'Running' : 'Completed')],
      read: async (workflowId) => {
        const ref = parseAssessmentWorkflowId(workflowId);
        return ref ? this.reader.read(caller.environment, caller.organizationId, ref.assessmentId) : undefined;
      },
    });
  }

  async get(caller: Caller, assessmentId: string): Promise<AssessmentResource> {
    const found = isAssessmentId(assessmentId) ? await this.reader.read(caller.environment, caller.organizationId, assessmentId) : undefined;
    if (!found) throw ApiError.notFound(`Assessment ${assessmentId}`);
    return found.resource;
  }

  private async replay(caller: Caller, assessmentId: string, requestHash: string): Promise<CreatedAssessment> {
    const existing = await this.reader.read(caller.environment, caller.organizationId, assessmentId);
    if (!existing) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The assessment is being created; retry shortly', { 'retry-after': '1' });
    if (existing.memo.request_hash !== requestHash) {
      throw new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request body');
    }
    return { assessment: existing.resource, replayed: true };
  }
}
