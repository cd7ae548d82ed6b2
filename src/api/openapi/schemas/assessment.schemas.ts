import { z } from 'zod';
import { ASSESSMENT_ESCALATION_KINDS, ASSESSMENT_STATUSES, FINDING_SEVERITIES, REVIEW_VERDICTS } from '../../../contract';
import type { AssessmentResource } from '../../../common/resources/assessment-resource';
import type { SameType } from './same-type';

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
  .array(z.object({ kind: z.enum(ASSESSMENT_ESCALATION_KINDS), at: z.iso.datetime() }))
  .meta({ description: 'SLA escalations recorded so far, oldest first.' });

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
});

export const ASSESSMENT_STATUS_VALUES = ASSESSMENT_STATUSES;

const _assessmentResourceDocumented: SameType<z.output<typeof assessmentResourceSchema>, AssessmentResource> = true;
