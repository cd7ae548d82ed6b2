import { z } from 'zod';
import { ASSESSMENT_ESCALATION_KINDS, ASSESSMENT_STATUSES, FINDING_SEVERITIES, REVIEW_STAGE_STATES, REVIEW_VERDICTS } from '../../contract';
import type { AssessmentResource } from '../../common/resources/assessment-resource';
import type { SameType } from '../platform/openapi/schemas/same-type';

export const findingSchema = z.object({
  check: z.string().meta({ description: 'Stable machine name of the check.', example: 'single_point_of_failure' }),
  severity: z.enum(FINDING_SEVERITIES),
  message: z.string(),
  component_ids: z.array(z.string()),
});

export const reviewSchema = z.object({
  verdict: z.enum(REVIEW_VERDICTS),
  notes: z.string(),
  reviewer: z.string(),
  completed_at: z.iso.datetime(),
});

export const escalationsSchema = z
  .array(
    z.object({
      kind: z.enum(ASSESSMENT_ESCALATION_KINDS),
      at: z.iso.datetime(),
      stage: z.string().optional().meta({ description: 'The stage whose deadline passed; absent in assessments created before stages existed.' }),
    }),
  )
  .meta({ description: 'SLA escalations recorded so far, oldest first.' });

export const claimSchema = z.object({ reviewer: z.string(), claimed_at: z.iso.datetime() });

export const stageSchema = z.object({
  name: z.string().meta({ example: 'network' }),
  group: z.string().nullable().meta({ description: 'The reviewer group that acts on this stage; null when any reviewer may.' }),
  approvals_required: z.union([z.literal(1), z.literal(2)]).meta({ description: '2 when the stage needs the approvals of two different reviewers (four-eyes).' }),
  state: z.enum(REVIEW_STAGE_STATES).meta({ description: '`pending` (not reached), `active` (waiting for a claim or a verdict), the stage\'s verdict, or `skipped` (an earlier stage ended the review).' }),
  reviews: z
    .array(z.object({ reviewer: z.string(), verdict: z.enum(REVIEW_VERDICTS), notes: z.string(), at: z.iso.datetime() }))
    .meta({ description: 'Every verdict given in the stage, oldest first.' }),
  claim: claimSchema.optional().meta({ description: 'Present while a reviewer holds the stage.' }),
  started_at: z.iso.datetime().optional(),
  completed_at: z.iso.datetime().optional(),
  due_at: z.iso.datetime().optional().meta({ description: "When the active stage's current wait (for a claim, or for a verdict) passes its deadline." }),
});

export const stageNameSchema = z.string().meta({ description: 'The name of the stage under review; absent once completed.', example: 'network' });
export const stagesSchema = z.array(stageSchema).meta({ description: 'Every stage of the review, in order; absent until the assessment first moved, and in assessments created before stages existed.' });

/** The assessment resource as the API returns it; the check at the end holds it equal to AssessmentResource. */
export const assessmentResourceSchema = z.object({
  assessment_id: z.string().meta({ example: 'asmt_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0' }),
  name: z.string(),
  status: z.enum(ASSESSMENT_STATUSES).meta({ description: '`submitted`, then `under_review` once a reviewer claims it, then `completed`.' }),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  expires_at: z.iso
    .datetime()
    .nullable()
    .meta({ description: 'RFC 3339, UTC: when the closed assessment, its Idempotency-Key and its webhook deliveries are deleted (the retention period after its review closed, 30 days by default); null until then.' }),
  findings: z.array(findingSchema).optional().meta({ description: 'Present once the automated checks ran.' }),
  review: reviewSchema.optional().meta({ description: 'Present once completed.' }),
  escalations: escalationsSchema,
  stage: stageNameSchema.optional(),
  stages: stagesSchema.optional(),
  revision_of: z.string().nullable().meta({ description: 'The assessment this one revises (given as `revision_of` when it was created); null when none.' }),
  revised_by: z.string().nullable().meta({ description: 'The assessment that revises this one; null until one does.' }),
});

export const ASSESSMENT_STATUS_VALUES = ASSESSMENT_STATUSES;

const _assessmentResourceDocumented: SameType<z.output<typeof assessmentResourceSchema>, AssessmentResource> = true;
