import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { KeyEnvironment } from '../../common/keys/api-key';
import { TemporalClients } from '../temporal/temporal-clients';
import { assessmentWorkflowId, type AssessmentMemo } from '../../contract';
import { toAssessmentResource, type AssessmentResource } from '../../common/resources/assessment-resource';

export interface AssessmentLookup {
  resource: AssessmentResource;
  memo: AssessmentMemo;
}

/**
 * Reads an assessment from its workflow's memo with describe(), which the server answers without
 * any worker. A closed workflow never changes again, so its answer is cached.
 */
@Injectable()
export class AssessmentWorkflowReader {
  // Bounded by size too: a closed assessment carries its findings, up to a few hundred KB.
  private readonly closed = new LRUCache<string, AssessmentLookup>({
    max: 10_000,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (lookup) => JSON.stringify(lookup.resource).length,
  });

  constructor(private readonly temporal: TemporalClients) {}

  async read(environment: KeyEnvironment, organizationId: string, assessmentId: string): Promise<AssessmentLookup | undefined> {
    const workflowId = assessmentWorkflowId(organizationId, assessmentId);
    const cacheKey = `${environment}/${workflowId}`;
    const cached = this.closed.get(cacheKey);
    if (cached) return cached;
    const description = await this.temporal.describe(environment, workflowId);
    if (!description) return undefined;
    const memo = description.memo as unknown as AssessmentMemo;
    const lookup = { resource: toAssessmentResource(assessmentId, memo), memo };
    if (description.status.name !== 'RUNNING') this.closed.set(cacheKey, lookup);
    return lookup;
  }
}
