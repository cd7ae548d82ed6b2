import { z } from 'zod';
import { ASSESSMENT_LIMITS as LIMITS } from './assessment-limits';
import { prefixedIdPattern } from './id-patterns';
import { quotedInput } from './quoted-input';
import { multiLine, singleLine, singleLineNotBlank } from './text-patterns';
import { ASSESSMENT_ESCALATION_KINDS, ASSESSMENT_ID_PREFIX, ASSESSMENT_STATUSES, FINDING_SEVERITIES, REVIEW_STAGE_STATES, REVIEW_VERDICTS } from './values';

const ASSESSMENT_ID_PATTERN = prefixedIdPattern(ASSESSMENT_ID_PREFIX);
const COMPONENT_ID = /^[A-Za-z0-9._:-]+$/;

/** A message for a value of the wrong type only, so zod's own message for unknown keys still names them. */
function wrongType(message: string) {
  return { error: (issue: { code: string }) => (issue.code === 'invalid_type' ? message : undefined) };
}

function label(maxLength: number) {
  return z
    .string({ error: `required, a string of 1-${maxLength} characters` })
    .min(1, { error: 'must not be empty' })
    .max(maxLength, { error: `must be at most ${maxLength} characters` })
    .check(singleLineNotBlank('must not be blank'));
}

const attributeValue = z.union(
  [z.string().max(LIMITS.attributeStringLength).check(singleLine()), z.number().finite(), z.boolean()],
  { error: `must be a string of at most ${LIMITS.attributeStringLength} characters, a finite number or a boolean` },
);

const componentSchema = z
  .object(
    {
      id: z
        .string({ error: 'required, a string' })
        .min(1, { error: 'must not be empty' })
        .max(LIMITS.componentIdLength, { error: `must be at most ${LIMITS.componentIdLength} characters` })
        .regex(COMPONENT_ID, { error: 'may contain only letters, digits and . _ : -' }),
      kind: label(LIMITS.kindLength),
      zone: label(LIMITS.zoneLength),
      attributes: z
        .record(label(LIMITS.attributeKeyLength), attributeValue, wrongType('must be an object'))
        .refine((attributes) => Object.keys(attributes).length <= LIMITS.attributes, {
          error: `must have at most ${LIMITS.attributes} keys`,
        })
        .meta({ maxProperties: LIMITS.attributes })
        .optional(),
    },
    wrongType('must be an object with id, kind and zone'),
  )
  .strict();

// Checked against the components by the superRefine below; documented with a component id's shape,
// which is what no component can have that a link's end does not.
const COMPONENT_REFERENCE = { pattern: COMPONENT_ID.source, maxLength: LIMITS.componentIdLength, description: 'The id of a component in this request.' };

const linkSchema = z
  .object(
    {
      from: z.string({ error: 'required, a component id' }).meta(COMPONENT_REFERENCE),
      to: z.string({ error: 'required, a component id' }).meta(COMPONENT_REFERENCE),
      kind: label(LIMITS.kindLength).optional(),
    },
    wrongType('must be an object with from and to'),
  )
  .strict();

export const createAssessmentSchema = z
  .object(
    {
      name: label(LIMITS.nameLength),
      context: z
        .string({ error: 'must be a string' })
        .max(LIMITS.contextLength, { error: `must be at most ${LIMITS.contextLength} characters` })
        .check(multiLine())
        .optional(),
      components: z
        .array(componentSchema, { error: 'required, an array of components' })
        .min(1, { error: 'must list at least one component' })
        .max(LIMITS.components, { error: `must list at most ${LIMITS.components} components` }),
      links: z
        .array(linkSchema, { error: 'required, an array of links (may be empty)' })
        .max(LIMITS.links, { error: `must list at most ${LIMITS.links} links` }),
      revision_of: z
        .string({ error: 'must be an assessment id' })
        .regex(new RegExp(ASSESSMENT_ID_PATTERN), { error: 'must be an assessment id: asmt_ and a ULID' })
        .meta({
          description:
            'The assessment this one revises: one of yours in this environment whose review requested changes (`changes_requested`), which no other assessment revises yet. Both then show the link (`revision_of`, `revised_by`), and reviewers see what changed.',
          example: 'asmt_01JB8ZM2D7E9F1G3H5J7K9M1N3',
        })
        .optional(),
    },
    wrongType('must be a JSON object'),
  )
  .strict()
  .superRefine((request, context) => {
    const firstIndexById = new Map<string, number>();
    request.components.forEach((component, index) => {
      const first = firstIndexById.get(component.id);
      if (first === undefined) {
        firstIndexById.set(component.id, index);
      } else {
        context.addIssue({ code: 'custom', path: ['components', index, 'id'], message: `"${component.id}" is already the id of components.${first}` });
      }
    });
    request.links.forEach((link, index) => {
      for (const end of ['from', 'to'] as const) {
        if (!firstIndexById.has(link[end])) {
          context.addIssue({ code: 'custom', path: ['links', index, end], message: `"${quotedInput(link[end])}" is not the id of any component` });
        }
      }
    });
  });

export type NetworkComponent = z.output<typeof componentSchema>;
export type NetworkLink = z.output<typeof linkSchema>;
export type CreateAssessmentRequest = z.input<typeof createAssessmentSchema>;

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

/** The assessment resource as the API returns it. */
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

export type Finding = z.output<typeof findingSchema>;
/** The pipeline's outcome: the deciding stage's verdict, by the reviewer who gave it. */
export type AssessmentReview = z.output<typeof reviewSchema>;
export type AssessmentEscalation = z.output<typeof escalationsSchema>[number];
export type AssessmentClaim = z.output<typeof claimSchema>;
/** One stage of an assessment's review, in the order the service's pipeline gives them. */
export type AssessmentStage = z.output<typeof stageSchema>;
/** One verdict given in a stage. */
export type StageReview = AssessmentStage['reviews'][number];
export type Assessment = z.output<typeof assessmentResourceSchema>;
