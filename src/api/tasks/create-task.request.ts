import { z } from 'zod';
import { ApiError } from '../http/api-error';
import { SOME_NON_WHITESPACE } from '../http/text-patterns';
import { describeIssue } from '../http/zod-issues';
import { MODEL_NAME_PATTERN, TASK_TYPES, type SummarizeInput, type TaskModel, type TaskType } from '../../contract';
import type { ModelCatalog } from '../../common/config/model-catalog';

export const createTaskSchema = z
  .object({
    task_type: z.enum(TASK_TYPES, { error: 'required, a string such as "summarize"' }),
    model: z
      .string({ error: 'must be a string, the name of a model (GET /v1/models)' })
      .regex(new RegExp(MODEL_NAME_PATTERN), 'must be the name of a model (GET /v1/models)')
      .optional()
      .meta({ description: 'The model to run on, one of GET /v1/models; absent, the service\'s default model.', example: 'extractive' }),
    input: z
      .object({
        text: z.string({ error: 'required, a string' }).regex(SOME_NON_WHITESPACE, 'must contain some non-whitespace text'),
        max_sentences: z.number().int().min(1).max(20).optional(),
      }, { error: 'required, an object with a text field' })
      .strict(),
  }, { error: 'must be a JSON object' })
  .strict();

export interface CreateTaskRequest {
  task_type: TaskType;
  input: SummarizeInput;
  /** Only when the client named one, so a request's hash is the same as before models were configurable. */
  model?: string;
}

export interface ParsedCreateTask {
  request: CreateTaskRequest;
  /** The model the task runs on: the one named, else the default. */
  model: TaskModel;
}

/** Validates a create body at the edge; everything after this works with a well-formed request. */
export function parseCreateTaskRequest(body: unknown, maxTextBytes: number, models: ModelCatalog): ParsedCreateTask {
  const parsed = createTaskSchema.safeParse(body);
  if (!parsed.success) throw requestError(parsed.error, body);
  const { input, model: named } = parsed.data;
  if (Buffer.byteLength(input.text, 'utf8') > maxTextBytes) {
    throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `input.text is larger than ${maxTextBytes} bytes`);
  }
  const model = models.taskModel(named);
  if (!model) throw new ApiError(400, 'UNKNOWN_MODEL', `model "${named}" is not offered; use one of: ${models.names.join(', ')}`);
  const request: CreateTaskRequest = { task_type: 'summarize', input: pickDefined(input) };
  if (named !== undefined) request.model = named;
  return { request, model };
}

/**
 * A task_type that is a string the service does not run is UNSUPPORTED_TASK_TYPE, so clients can
 * tell "not yet" from "malformed"; it is reported only once the rest of the body is valid.
 */
function requestError(error: z.ZodError, body: unknown): ApiError {
  const taskType = typeof body === 'object' && body !== null ? (body as { task_type?: unknown }).task_type : undefined;
  const unsupportedType = (issue: z.core.$ZodIssue) => typeof taskType === 'string' && issue.path.length === 1 && issue.path[0] === 'task_type';
  const malformed = error.issues.find((issue) => !unsupportedType(issue));
  if (malformed || typeof taskType !== 'string') return ApiError.invalidRequest(describeIssue(malformed ?? error.issues[0]));
  return new ApiError(400, 'UNSUPPORTED_TASK_TYPE', `task_type "${truncate(taskType)}" is not supported; use one of: ${TASK_TYPES.join(', ')}`);
}

function pickDefined(input: SummarizeInput): SummarizeInput {
  return input.max_sentences === undefined ? { text: input.text } : { text: input.text, max_sentences: input.max_sentences };
}

function truncate(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
