import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { KeyEnvironment } from '../../common/keys/api-key';
import { TemporalClients } from '../platform/temporal/temporal-clients';
import { assessmentWorkflowId, type AssessmentMemo } from '../../contract';
import { CLOSED_READ_TTL_MS } from '../tasks/task-workflow-reader';
import { expiresAt } from '../../common/resources/expiry';
import { toAssessmentResource } from '../../common/resources/assessment-resource';
import { AssessmentRevisionStore } from '../../common/storage/assessment-revision-store';
import type { Assessment } from '../../contract/wire';

export interface AssessmentLookup {
  resource: Assessment;
  memo: AssessmentMemo;
  /** The run it was read from: the current run of its workflow id. */
  runId: string;
}

/**
 * Reads an assessment from its workflow's memo with describe(), which the server answers without
 * any worker. A closed assessment's answer is cached briefly: an operator's reset may replace the
 * run (the same bound as tasks, docs/operator-actions.md). Its revision links are read from the
 * database on every read, never cached: a closed assessment gains `revised_by` when it is revised.
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

  constructor(
    private readonly temporal: TemporalClients,
    private readonly revisions: AssessmentRevisionStore,
  ) {}

  /** After an erasure: the next read asks Temporal. */
  forget(environment: KeyEnvironment, organizationId: string, assessmentId: string): void {
    this.closed.delete(`${environment}/${assessmentWorkflowId(organizationId, assessmentId)}`);
  }

  async read(environment: KeyEnvironment, organizationId: string, assessmentId: string): Promise<AssessmentLookup | undefined> {
    const lookup = await this.readWorkflow(environment, organizationId, assessmentId);
    if (!lookup) return undefined;
    const links = await this.revisions.links(environment, { organizationId, assessmentId });
    return { ...lookup, resource: { ...lookup.resource, revision_of: links.revisionOf, revised_by: links.revisedBy } };
  }

  /** The workflow's side alone: the resource's revision links are left null. */
  async readWorkflow(environment: KeyEnvironment, organizationId: string, assessmentId: string): Promise<AssessmentLookup | undefined> {
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
