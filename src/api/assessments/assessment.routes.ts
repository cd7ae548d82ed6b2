import { z } from 'zod';
import { ASSESSMENT_ID_PATTERN } from '../../common/ids/assessment-ids';
import { listQuerySchema } from '../../contract/wire/listing';
import type { ApiOperation } from '../platform/openapi/api-operation';
import { ERASE_RESPONSES, IDEMPOTENCY_KEY_HEADER, LOCATION_HEADER, RATE_LIMIT_HEADERS, REPLAY_HEADER } from '../platform/openapi/common-parameters';
import { oneResourceOperation } from '../platform/openapi/one-resource-operation';
import { ASSESSMENT_STATUSES, assessmentResourceSchema, createAssessmentSchema, listPageSchema } from '../../contract/wire';

const ASSESSMENT = { name: 'Assessment', schema: assessmentResourceSchema };
// Any other value is 404: no assessment can have it.
const ASSESSMENT_ID = { name: 'assessment_id', description: 'The id returned on creation: `asmt_` and a ULID.', schema: z.string().regex(new RegExp(ASSESSMENT_ID_PATTERN)), example: 'asmt_01JB8ZM2D7E9F1G3H5J7K9M1N3' };
const CREATED_AT = '2025-06-02T09:15:27.114Z';

const COMPLETED_AT = '2025-06-03T14:02:11.000Z';

const submitted = {
  assessment_id: 'asmt_01JB8ZM2D7E9F1G3H5J7K9M1N3',
  name: 'Checkout platform',
  status: 'submitted',
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
  expires_at: null,
  escalations: [],
  revision_of: null,
  revised_by: null,
};
const completed = {
  ...submitted,
  status: 'completed',
  updated_at: COMPLETED_AT,
  expires_at: '2025-07-03T14:02:11.000Z',
  findings: [{ check: 'single_point_of_failure', severity: 'high', message: 'db-1 is the only database and every service depends on it.', component_ids: ['db-1'] }],
  review: { verdict: 'changes_requested', notes: 'Add a replica in a second zone.', reviewer: 'alice', completed_at: COMPLETED_AT },
  stages: [
    {
      name: 'review',
      group: null,
      approvals_required: 1,
      state: 'changes_requested',
      reviews: [{ reviewer: 'alice', verdict: 'changes_requested', notes: 'Add a replica in a second zone.', at: COMPLETED_AT }],
      started_at: CREATED_AT,
      completed_at: COMPLETED_AT,
    },
  ],
  revised_by: 'asmt_01JB9Q4W8X2C6V0B4N8M2K6J0H',
};

/** The network assessment routes: AssessmentsController serves them, the OpenAPI document describes them. */
export const ASSESSMENT_ROUTES = {
  create: {
    method: 'post',
    path: '/v1/network-assessments',
    operationId: 'createAssessment',
    tag: 'Network assessments',
    summary: 'Submit a network architecture for assessment',
    description: 'Automated checks run first (single points of failure, zone redundancy, reachability); then the architecture team claims and reviews it, which can take days. Poll GET until completed.',
    headers: [IDEMPOTENCY_KEY_HEADER],
    requestBody: {
      name: 'CreateAssessmentRequest',
      schema: createAssessmentSchema,
      example: {
        name: 'Checkout platform',
        context: 'Peak 2,000 orders/min.',
        components: [
          { id: 'lb-1', kind: 'load_balancer', zone: 'eu-west-1a' },
          { id: 'app-1', kind: 'service', zone: 'eu-west-1a' },
          { id: 'db-1', kind: 'database', zone: 'eu-west-1a', attributes: { engine: 'postgres' } },
        ],
        links: [
          { from: 'lb-1', to: 'app-1' },
          { from: 'app-1', to: 'db-1', kind: 'sql' },
        ],
      },
    },
    responses: [
      { status: 202, description: 'Accepted: the assessment (submitted; on an idempotent replay, as it is now).', body: ASSESSMENT, example: submitted, headers: { ...LOCATION_HEADER, ...REPLAY_HEADER, ...RATE_LIMIT_HEADERS } },
    ],
    errors: ['INVALID_REQUEST', 'NOT_FOUND', 'REVISION_NOT_ALLOWED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'IDEMPOTENCY_KEY_REUSED', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'ENCRYPTION_REQUIRED'],
  },
  list: {
    method: 'get',
    path: '/v1/network-assessments',
    operationId: 'listAssessments',
    tag: 'Network assessments',
    summary: 'List network assessments',
    description: "The caller's assessments in its environment: open ones first, then the most recently completed. Follow next_cursor while has_more is true.",
    query: listQuerySchema(ASSESSMENT_STATUSES),
    responses: [
      { status: 200, description: 'One page of assessments.', body: { name: 'AssessmentList', schema: listPageSchema(assessmentResourceSchema) }, example: { data: [completed], has_more: false, next_cursor: null } },
    ],
    errors: ['INVALID_REQUEST', 'SERVICE_UNAVAILABLE', 'ENCRYPTION_REQUIRED'],
  },
  get: oneResourceOperation({
    method: 'get',
    path: '/v1/network-assessments/{assessment_id}',
    operationId: 'getAssessment',
    tag: 'Network assessments',
    summary: 'Get a network assessment',
    description: 'Findings appear once the automated checks ran; review once the architecture team completed it.',
    id: ASSESSMENT_ID,
    answer: { description: 'The assessment.', body: ASSESSMENT, example: completed },
    waitsForChange: true,
  }),
  erase: {
    method: 'delete',
    path: '/v1/network-assessments/{assessment_id}',
    operationId: 'deleteAssessment',
    tag: 'Network assessments',
    summary: 'Erase a network assessment',
    description:
      "Removes the assessment and its history from Temporal, with its Idempotency-Key, its webhook events, their redeliveries and delivery records, for the caller's organisation and environment only; one still open (submitted or under review) is canceled first. Then GET answers 404, lists leave it out and no webhook about it is sent. Repeating it answers 204 again within the retention period; an id the caller has no assessment by (never submitted, another organisation's or environment's, past retention) is 404 and changes nothing. Counts against the create rate limit.",
    pathParameters: [ASSESSMENT_ID],
    responses: ERASE_RESPONSES,
    errors: ['NOT_FOUND', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE'],
  },
} satisfies Record<string, ApiOperation>;
