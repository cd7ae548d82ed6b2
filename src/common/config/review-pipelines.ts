import { z } from 'zod';
import { singleStagePipeline, type AssessmentSla, type ReviewPipeline, type ReviewStageDefinition } from '../../contract';
import { KEY_ENVIRONMENTS, type KeyEnvironment } from '../keys/api-key';
import { REVIEWER_GROUP_SHAPE } from '../reviewers/reviewer-credential';
import { slaDuration } from './durations';

/** Each key environment's review pipeline, as every new assessment of that environment gets it. */
export type ReviewPipelines = Readonly<Record<KeyEnvironment, ReviewPipeline>>;

// Stage and group names appear in the API, the console and the CLI: short, lowercase, no spaces;
// a group is one a reviewer credential can carry.
const NAME_SHAPE = REVIEWER_GROUP_SHAPE;
const NAME_RULE = 'must be 1-32 characters of a-z, 0-9, _ and -, starting with a letter or digit';
const MAX_STAGES = 10;

const stageSchema = z
  .object({
    name: z.string({ error: `required: ${NAME_RULE.replace('must be ', '')}` }).regex(NAME_SHAPE, NAME_RULE),
    // Absent or null: every reviewer may act on the stage.
    group: z.string({ error: 'must be a group name or null' }).regex(NAME_SHAPE, NAME_RULE).nullable().optional(),
    // Absent: ASSESSMENT_CLAIM_SLA and ASSESSMENT_REVIEW_SLA, as the single stage has them.
    claim_within: z.string({ error: 'must be a duration such as "2 days"' }).pipe(slaDuration).optional(),
    review_within: z.string({ error: 'must be a duration such as "5 days"' }).pipe(slaDuration).optional(),
    four_eyes: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict();

const pipelineSchema = z
  .object({
    stages: z.array(stageSchema, { error: 'required, a list of stages' }).min(1, 'must list at least one stage').max(MAX_STAGES, `must list at most ${MAX_STAGES} stages`),
    distinct_approvers: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict()
  .superRefine((pipeline, context) => {
    const seen = new Set<string>();
    pipeline.stages.forEach((stage, index) => {
      if (seen.has(stage.name)) context.addIssue({ code: 'custom', path: ['stages', index, 'name'], message: `"${stage.name}" names an earlier stage too; stage names are unique` });
      seen.add(stage.name);
    });
  });

// The message for a value of the wrong type only, so zod's own names an unknown key.
const pipelinesSchema = z
  .object(
    { test: pipelineSchema.optional(), live: pipelineSchema.optional() },
    { error: (issue) => (issue.code === 'invalid_type' ? 'must be a JSON object keyed by environment, "test" and/or "live"' : undefined) },
  )
  .strict();

type PipelineSettings = z.output<typeof pipelineSchema>;

/**
 * REVIEW_PIPELINES (docs/configuration.md, Assessments): JSON keyed by key environment, each an
 * ordered list of stages and whether one reviewer may approve several of them. An environment not
 * given reviews as before pipelines: one stage anyone may act on, with ASSESSMENT_CLAIM_SLA and
 * ASSESSMENT_REVIEW_SLA. Throws with one line per problem, each naming where it is.
 */
export function parseReviewPipelines(text: string | undefined, sla: AssessmentSla): ReviewPipelines {
  let json: unknown = {};
  if (text !== undefined && text.trim() !== '') {
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new Error(`REVIEW_PIPELINES: not valid JSON (${(error as Error).message})`);
    }
  }
  const parsed = pipelinesSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((issue) => `REVIEW_PIPELINES${issue.path.map((part) => `.${String(part)}`).join('')}: ${issue.message}`).join('\n'));
  }
  const pipelines = {} as Record<KeyEnvironment, ReviewPipeline>;
  for (const environment of KEY_ENVIRONMENTS) {
    const settings = parsed.data[environment];
    pipelines[environment] = settings ? toPipeline(settings, sla) : singleStagePipeline(sla);
  }
  return Object.freeze(pipelines);
}

function toPipeline(settings: PipelineSettings, sla: AssessmentSla): ReviewPipeline {
  return {
    stages: settings.stages.map(
      (stage): ReviewStageDefinition => ({
        name: stage.name,
        group: stage.group ?? null,
        claimWithinMs: stage.claim_within ?? sla.claimWithinMs,
        reviewWithinMs: stage.review_within ?? sla.reviewWithinMs,
        approvalsRequired: stage.four_eyes ? 2 : 1,
      }),
    ),
    distinctApproversAcrossStages: settings.distinct_approvers ?? false,
  };
}
