// Holds the published SDK's hand-written wire types to the schemas the service validates with and
// documents in /openapi.json: this file does not compile (so `npm run build` and `npm test` fail)
// when a response carries something the SDK's type cannot hold, or when a request the SDK's type
// allows is one the service's schema rejects by type. One way each: the SDK is kept open where a
// newer server may add values. (Error codes need no check: the API's ErrorCode is the SDK's list.
// The resources need none either, bar the pages of tasks: their schema files hold them exactly to
// the SDK's types.)
import type { z } from 'zod';
import type * as Sdk from '../sdk';
import type { ListPage } from './platform/listing/list-resources';
import { createAssessmentSchema } from './assessments/create-assessment.request';
import { BATCH_ROUTES } from './batches/batch.routes';
import { createBatchSchema } from './batches/create-batch.request';
import { createTaskSchema } from './tasks/create-task.request';
import { createWebhookEndpointSchema } from './webhooks/create-webhook-endpoint.request';
import type { Merged } from './platform/openapi/schemas/same-type';
import { taskResourceSchema } from './tasks/task.schemas';

/** `true` only when every A is a B. */
type Assignable<A, B> = [A] extends [B] ? true : false;

type Served<S extends z.ZodType> = z.output<S>;
type Accepted<S extends z.ZodType> = z.input<S>;

// The SDK narrows a task on its status; the schema lists output and error as optional fields.
const _taskPage: Assignable<ListPage<Served<typeof taskResourceSchema>>, Sdk.ListPage<Merged<Sdk.Task>>> = true;
const _batchTaskPage: Assignable<Served<(typeof BATCH_ROUTES.tasks.responses)[0]['body']['schema']>, Sdk.ListPage<Merged<Sdk.Task>>> = true;

const _createTask: Assignable<Sdk.CreateTaskRequest, Accepted<typeof createTaskSchema>> = true;
const _createBatch: Assignable<Sdk.CreateBatchRequest, Accepted<typeof createBatchSchema>> = true;
const _createAssessment: Assignable<Sdk.CreateAssessmentRequest, Accepted<typeof createAssessmentSchema>> = true;
const _createWebhookEndpoint: Assignable<Sdk.CreateWebhookEndpointRequest, Accepted<typeof createWebhookEndpointSchema>> = true;

