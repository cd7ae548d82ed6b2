import { z } from 'zod';
import { ASSESSMENT_STATUSES, type AssessmentReviewSnapshot } from '../../../contract';
import type { OperatorAssessmentView } from '../../../common/review/assessment-review-client';
import type { PendingAssessment } from '../../../common/review/pending-assessment';
import type { ReviewerIdentity } from '../../review/review.service';
import { assessmentResourceSchema, escalationsSchema, reviewSchema } from './assessment.schemas';
import type { SameType } from './same-type';

const claimSchema = z.object({ reviewer: z.string(), claimed_at: z.iso.datetime() }).meta({ description: 'Present while under_review.' });
const dueAtSchema = z.iso.datetime().meta({ description: 'When the current wait (for a claim, or for a verdict) passes its SLA; absent once completed and while the checks run.' });

export const reviewerIdentitySchema = z.object({
  reviewer_id: z.string().meta({ example: 'rvw_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0' }),
  name: z.string().meta({ description: 'Recorded as the reviewer of every claim and verdict made with this credential.', example: 'alice' }),
  environment: z.enum(['test', 'live']),
});

export const pendingAssessmentSchema = z.object({
  assessment_id: z.string(),
  organization_id: z.string(),
  name: z.string(),
  status: z.enum(ASSESSMENT_STATUSES),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  checks_completed: z.boolean(),
  claim: claimSchema.optional(),
  due_at: dueAtSchema.optional(),
  escalations: escalationsSchema,
});

const componentSchema = z.object({
  id: z.string(),
  kind: z.string(),
  zone: z.string(),
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});

const linkSchema = z.object({ from: z.string(), to: z.string(), kind: z.string().optional() });

export const reviewerAssessmentSchema = assessmentResourceSchema.extend({
  organization_id: z.string(),
  workflow_status: z.string().meta({ description: "Temporal's status of the assessment's workflow, e.g. RUNNING or COMPLETED." }),
  claim: claimSchema.optional(),
  due_at: dueAtSchema.optional(),
  context: z.string(),
  graph: z.object({ components: z.array(componentSchema), links: z.array(linkSchema) }),
});

export const reviewSnapshotSchema = z.object({
  status: z.enum(ASSESSMENT_STATUSES),
  updated_at: z.iso.datetime(),
  checks_completed: z.boolean(),
  claim: claimSchema.optional(),
  review: reviewSchema.optional().meta({ description: 'Present once completed.' }),
  escalations: escalationsSchema,
  due_at: dueAtSchema.optional(),
});

const _identityDocumented: SameType<z.output<typeof reviewerIdentitySchema>, ReviewerIdentity> = true;
const _pendingDocumented: SameType<z.output<typeof pendingAssessmentSchema>, PendingAssessment> = true;
const _assessmentDocumented: SameType<z.output<typeof reviewerAssessmentSchema>, OperatorAssessmentView> = true;
const _snapshotDocumented: SameType<z.output<typeof reviewSnapshotSchema>, AssessmentReviewSnapshot> = true;
