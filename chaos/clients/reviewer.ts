import type { Client } from '@temporalio/client';
import { AppConfig } from '../../src/common/config/app-config';
import { AssessmentReviewClient } from '../../src/api/review/assessment-review-client';
import { SubmittedArchitectures } from '../../src/api/review/submitted-architectures';
import { forEachConcurrently } from './concurrency';
import type { WorkItem } from './work-items';
import { CHAOS_ORGANIZATION, CHAOS_REVIEWER } from '../stack/chaos-stack';

const UPDATE_TIMEOUT_MS = 30_000;
const REVIEWS_IN_PARALLEL = 4;

/**
 * The architecture team: claims and approves every accepted assessment, as `assay assessments
 * claim|complete` do. Straight on Temporal, where the API's review index is not at hand: every
 * assessment here is the chaos organisation's.
 */
export async function reviewAll(client: Client, items: readonly WorkItem[]): Promise<void> {
  const lookups = { locate: async (assessmentId: string) => ({ organizationId: CHAOS_ORGANIZATION, assessmentId }), architectures: new SubmittedArchitectures() };
  const reviewer = new AssessmentReviewClient(client, { updateTimeoutMs: UPDATE_TIMEOUT_MS, retentionMs: new AppConfig().values.RETENTION_PERIOD }, lookups);
  const ids = items.filter((item) => item.kind === 'assessment').flatMap((item) => [...item.ids]);
  await forEachConcurrently(ids, REVIEWS_IN_PARALLEL, async (id) => {
    await reviewer.claim(id, { reviewer: CHAOS_REVIEWER });
    await reviewer.complete(id, { verdict: 'approved', notes: 'Reviewed by the chaos suite.', reviewer: CHAOS_REVIEWER });
  });
}
