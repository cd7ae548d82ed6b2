import { z } from 'zod';
import { assessmentResourceSchema, claimSchema as stageClaimSchema, escalationsSchema, findingSchema, reviewSchema } from './assessment';
import { multiLineNotBlank } from './text-patterns';
import { ASSESSMENT_STATUSES, CREDENTIAL_ENVIRONMENTS, MAX_NOTES_LENGTH, REVIEW_VERDICTS } from './values';

// What the reviewer API answers and accepts: read by the reviewer CLI and the review console too.

const claimSchema = stageClaimSchema.meta({ description: 'Present while under_review.' });
const dueAtSchema = z.iso.datetime().meta({ description: 'When the current wait (for a claim, or for a verdict) passes its SLA; absent once completed and while the checks run.' });

export const reviewerIdentitySchema = z.object({
  reviewer_id: z.string().meta({ example: 'rvw_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0' }),
  name: z.string().meta({ description: 'Recorded as the reviewer of every claim and verdict made with this credential.', example: 'alice' }),
  environment: z.enum(CREDENTIAL_ENVIRONMENTS),
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

/** The reviewer a credential names, as GET /v1/review/me answers. */
export type ReviewerIdentity = z.output<typeof reviewerIdentitySchema>;
/** One line of the review queue. */
export type PendingAssessment = z.output<typeof pendingAssessmentSchema>;
/**
 * Everything a reviewer needs: the customer's view (stages and revision links included) plus the
 * claim, the deadline, what was submitted and, for a revision, what it changed.
 */
export type OperatorAssessmentView = z.output<typeof reviewerAssessmentSchema>;
/** What a revision changed against the assessment it revises, as a reviewer sees it. */
export type AssessmentRevisionDiff = z.output<typeof revisionDiffSchema>;
/** The review's state as a reviewer update answers it. */
export type ReviewSnapshot = z.output<typeof reviewSnapshotSchema>;

export const completeReviewSchema = z
  .object({
    verdict: z.enum(REVIEW_VERDICTS, { error: `must be one of ${REVIEW_VERDICTS.join(', ')}` }),
    notes: z
      .string({ error: 'required, a string' })
      .max(MAX_NOTES_LENGTH, { error: `must be at most ${MAX_NOTES_LENGTH} characters` })
      .check(multiLineNotBlank('must not be blank'))
      .meta({ description: 'What the customer should know or change; shown to them in GET.' }),
  })
  .strict();

export type CompleteReviewRequest = z.output<typeof completeReviewSchema>;
