import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { KeyEnvironment } from '../../common/keys/api-key';
import { TemporalClients } from '../temporal/temporal-clients';
import { assessmentWorkflowId, type AssessmentMemo } from '../../contract';
import { CLOSED_READ_TTL_MS } from '../tasks/task-workflow-reader';
import { expiresAt } from '../../common/resources/expiry';
import { toAssessmentResource, type AssessmentResource } from '../../common/resources/assessment-resource';

export interface AssessmentLookup {
  resource: AssessmentResource;
  memo: AssessmentMemo;
  /** The run it was read from: the current run of its workflow id. */
  runId: string;
}

/**
 * Reads an assessment from its workflow's memo with describe(), which the server answers without
 * any worker. A closed assessment's answer is cached briefly: an operator's reset may replace the
 * run (the same bound as tasks, docs/operator-actions.md).
 */
@Injectable()
export class AssessmentWorkflowReader {
  // Bounded by size too: a closed assessment carries its findings, up to a few hundred KB.
  private readonly closed = new LRUCache<string, AssessmentLookup>({
    max: 10_000,
    ttl: CLOSED_READ_TTL_MS,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (lookup) => JSON.stringify(lookup.resource).length,
  });

  constructor(private readonly temporal: TemporalClients) {}

  /** After an erasure: the next read asks Temporal. */
  forget(environment: KeyEnvironment, organizationId: string, assessmentId: string): void {
    this.closed.delete(`${environment}/${assessmentWorkflowId(organizationId, assessmentId)}`);
  }

  async read(environment: KeyEnvironment, organizationId: string, assessmentId: string): Promise<AssessmentLookup | undefined> {
    const workflowId = assessmentWorkflowId(organizationId, assessmentId);
    const cacheKey = `${environment}/${workflowId}`;
    const cached = this.closed.get(cacheKey);
    if (cached) return cached;
    const description = await this.temporal.describe(environment, workflowId);
    if (!description) return undefined;
    const memo = description.memo as unknown as AssessmentMemo;
    const lookup = { resource: toAssessmentResource(assessmentId, memo, expiresAt(description.closeTime, this.temporal.retentionMs)), memo, runId: description.runId };
    if (description.status.name !== 'RUNNING') this.closed.set(cacheKey, lookup);
    return lookup;
  }
}
