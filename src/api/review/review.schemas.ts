import { z } from 'zod';
import { ASSESSMENT_STATUSES, type AssessmentReviewSnapshot } from '../../contract';
import type { OperatorAssessmentView, PendingAssessment } from '../../common/review/review-wire';
import type { ReviewerIdentity } from './review.service';
import { assessmentResourceSchema, claimSchema as stageClaimSchema, escalationsSchema, findingSchema, reviewSchema } from '../assessments/assessment.schemas';
import type { SameType } from '../platform/openapi/schemas/same-type';

const claimSchema = stageClaimSchema.meta({ description: 'Present while under_review.' });
const dueAtSchema = z.iso.datetime().meta({ description: 'When the current wait (for a claim, or for a verdict) passes its SLA; absent once completed and while the checks run.' });

export const reviewerIdentitySchema = z.object({
  reviewer_id: z.string().meta({ example: 'rvw_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0' }),
  name: z.string().meta({ description: 'Recorded as the reviewer of every claim and verdict made with this credential.', example: 'alice' }),
  environment: z.enum(['test', 'live']),
  groups: z.array(z.string()).meta({ description: 'The reviewer groups of the credential: a pipeline stage with a group accepts claims and verdicts from its members only; with none, only stages without a group.', example: ['network'] }),
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
  stage: z.string().nullable().meta({ description: 'The stage under review.', example: 'network' }),
  group: z.string().nullable().meta({ description: 'The reviewer group that acts on the stage under review; null when any reviewer may.', example: 'network' }),
});

const componentSchema = z.object({
  id: z.string(),
  kind: z.string(),
  zone: z.string(),
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});

const linkSchema = z.object({ from: z.string(), to: z.string(), kind: z.string().optional() });

const revisionDiffSchema = z.object({
  of: z.string().meta({ description: 'The assessment revised.' }),
  components_added: z.array(z.string()).meta({ description: 'Ids of the components only the revision has.' }),
  components_removed: z.array(z.string()).meta({ description: 'Ids of the components only the assessment revised had.' }),
  links_added: z.array(linkSchema).meta({ description: 'Links (matched by from, to and kind) only the revision has.' }),
  links_removed: z.array(linkSchema),
  findings_fixed: z.array(findingSchema).optional().meta({ description: "The revised assessment's findings (matched by check and component ids) the revision no longer has; absent while the revision's checks run." }),
  findings_new: z.array(findingSchema).optional().meta({ description: 'Findings only the revision has; absent while its checks run.' }),
});

export const reviewerAssessmentSchema = assessmentResourceSchema.extend({
  organization_id: z.string(),
  workflow_status: z.string().meta({ description: "Temporal's status of the assessment's workflow, e.g. RUNNING or COMPLETED." }),
  claim: claimSchema.optional(),
  due_at: dueAtSchema.optional(),
  context: z.string(),
  graph: z.object({ components: z.array(componentSchema), links: z.array(linkSchema) }),
  revision: revisionDiffSchema.optional().meta({ description: 'For a revision (`revision_of`), what it changed against the assessment it revises; absent when that one is no longer kept.' }),
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
