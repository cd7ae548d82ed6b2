import { z } from 'zod';
import { ASSESSMENT_ID_PATTERN } from '../../common/ids/assessment-ids';
import type { ApiOperation, ParameterDoc } from '../platform/openapi/api-operation';
import { completeReviewSchema, listPageSchema, pendingAssessmentSchema, reviewerAssessmentSchema, reviewerIdentitySchema, reviewSnapshotSchema } from '../../contract/wire';
import { reviewQueueQuerySchema } from './review-queue.request';

const TAG = 'Review';
const ASSESSMENT_ID: ParameterDoc = {
  name: 'assessment_id',
  description: 'The assessment to act on: `asmt_` and a ULID, from the queue.',
  schema: z.string().regex(new RegExp(ASSESSMENT_ID_PATTERN)),
  example: 'asmt_01JB8ZM2D7E9F1G3H5J7K9M1N3',
};
const SNAPSHOT = { name: 'ReviewSnapshot', schema: reviewSnapshotSchema };
const CLAIMED_AT = '2025-06-03T09:00:00.000Z';
const claimed = {
  status: 'under_review',
  updated_at: CLAIMED_AT,
  checks_completed: true,
  claim: { reviewer: 'alice', claimed_at: CLAIMED_AT },
  escalations: [],
  due_at: '2025-06-08T09:00:00.000Z',
};
/** What every action can be refused with besides the credential: no such assessment (or one not in sight), a state that does not allow it, no worker answering in time. */
const ACTION_ERRORS: ApiOperation['errors'] = ['NOT_FOUND', 'REVIEW_REFUSED', 'REVIEW_UNCONFIRMED', 'SERVICE_UNAVAILABLE'];
/** What a reviewer sees (ReviewerSight), said once for the queue and GET. */
const SIGHT =
  'A reviewer sees an assessment once it has reached a stage of one of their groups or a stage without a group: while it is there, after it went past, and once completed if the review got that far. ' +
  'Before, it is as unknown to them as an id nobody created, unless the operator set REVIEWERS_SEE_ALL_STAGES=true.';
/** How GET and every action answer for an assessment out of sight. */
const NOT_IN_SIGHT = 'An assessment not in sight answers 404 NOT_FOUND with the body of an unknown id';
/** Said of each action: no refusal or timeout tells a hidden assessment from none. */
const ACTION_SIGHT = `${NOT_IN_SIGHT} whatever its state (sight as in GET), and the action changes nothing.`;

/**
 * The architecture team's operations: a reviewer credential (`assay reviewers add`) only, in its
 * environment; the reviewer recorded is always the credential's name.
 */
export const REVIEW_ROUTES = {
  me: {
    method: 'get',
    path: '/v1/review/me',
    operationId: 'getReviewer',
    tag: TAG,
    reviewer: true,
    summary: 'Who the reviewer credential belongs to',
    responses: [{ status: 200, description: 'The reviewer.', body: { name: 'Reviewer', schema: reviewerIdentitySchema }, example: { reviewer_id: 'rvw_01JB8ZK6Q5T3W0V9X2Y4Z6A8C0', name: 'alice', environment: 'test', groups: ['network'] } }],
    errors: [],
  },
  queue: {
    method: 'get',
    path: '/v1/review/assessments',
    operationId: 'listReviewQueue',
    tag: TAG,
    reviewer: true,
    summary: 'The open assessments of every organisation, earliest SLA deadline first, a page at a time',
    description:
      'Earliest deadline (`due_at`) first, so overdue ones lead, then the oldest. An assessment whose checks still run is placed by its claim deadline and says `checks_completed: false`. ' +
      'Filters narrow it to what is overdue, to your claims, to one stage of the review pipeline (`stage`) or to the stages of one reviewer group (`group`). ' +
      `${SIGHT} ` +
      'Each item is read from its workflow as the page is built; one that left the queue, no longer meets the filters or is not in sight is left out, so a page may hold fewer than `limit` items while `has_more` is still right. Follow next_cursor while has_more is true.',
    query: reviewQueueQuerySchema,
    responses: [{ status: 200, description: 'One page of the queue.', body: { name: 'ReviewQueue', schema: listPageSchema(pendingAssessmentSchema) } }],
    errors: ['INVALID_REQUEST', 'SERVICE_UNAVAILABLE'],
  },
  get: {
    method: 'get',
    path: '/v1/review/assessments/{assessment_id}',
    operationId: 'getReviewAssessment',
    tag: TAG,
    reviewer: true,
    summary: 'An assessment as a reviewer needs it: findings, stages, claim, deadline, the submitted context and architecture, and what a revision changed',
    description:
      `${SIGHT} ${NOT_IN_SIGHT}. ` +
      'A revision link to an assessment the reviewer could not GET (not in sight, or no longer kept) is left out: `revision_of` or `revised_by` is null and `revision` absent.',
    pathParameters: [ASSESSMENT_ID],
    responses: [{ status: 200, description: 'The assessment.', body: { name: 'ReviewAssessment', schema: reviewerAssessmentSchema } }],
    errors: ['NOT_FOUND', 'SERVICE_UNAVAILABLE'],
  },
  claim: {
    method: 'post',
    path: '/v1/review/assessments/{assessment_id}/claim',
    operationId: 'claimAssessment',
    tag: TAG,
    reviewer: true,
    summary: "Claim the assessment's active stage: submitted → under_review",
    description:
      `Claiming again what you hold changes nothing, so a retry is harmless. Refused (409 REVIEW_REFUSED, the message starting with the reason) while the checks run, when another reviewer holds it, when the stage's group is not one of this reviewer's (NOT_IN_STAGE_GROUP), when this reviewer already approved the four-eyes stage or, if the pipeline wants distinct approvers, another stage (FOUR_EYES), or once completed. ${ACTION_SIGHT}`,
    pathParameters: [ASSESSMENT_ID],
    responses: [{ status: 200, description: 'The review state after the claim.', body: SNAPSHOT, example: claimed }],
    errors: ACTION_ERRORS,
  },
  release: {
    method: 'post',
    path: '/v1/review/assessments/{assessment_id}/release',
    operationId: 'releaseAssessment',
    tag: TAG,
    reviewer: true,
    summary: "Give the active stage's claim back to the queue; the status stays under_review",
    description: `Only the reviewer holding the claim can release it. The stage waits for a claim again, its claim deadline restarted. ${ACTION_SIGHT}`,
    pathParameters: [ASSESSMENT_ID],
    responses: [{ status: 200, description: 'The review state after the release.', body: SNAPSHOT }],
    errors: ACTION_ERRORS,
  },
  complete: {
    method: 'post',
    path: '/v1/review/assessments/{assessment_id}/complete',
    operationId: 'completeAssessment',
    tag: TAG,
    reviewer: true,
    summary: "Record a verdict on the active stage: the last stage's approval, or any other verdict, completes the assessment",
    description:
      `Only the reviewer holding the claim can give it. An approval moves the review to the next stage (a four-eyes stage first needs a second, different approver); the last approval, \`changes_requested\` or \`rejected\` complete the assessment, and the customer sees the deciding verdict, its notes and reviewer in GET and gets an \`assessment.reviewed\` event. ${ACTION_SIGHT}`,
    pathParameters: [ASSESSMENT_ID],
    requestBody: { name: 'CompleteReviewRequest', schema: completeReviewSchema, example: { verdict: 'changes_requested', notes: 'Add a replica of db-1 in a second zone.' } },
    responses: [{ status: 200, description: 'The review state, completed.', body: SNAPSHOT }],
    errors: ['INVALID_REQUEST', ...ACTION_ERRORS],
  },
} satisfies Record<string, ApiOperation>;
