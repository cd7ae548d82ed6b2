import type { z } from 'zod';
import { ApiError } from '../platform/http/api-error';
import { describeIssue } from '../platform/http/zod-issues';
import { TASK_TYPES, type SummarizeInput, type TaskModel, type TaskPriority } from '../../contract';
import { quotedInput } from '../../contract/wire/quoted-input';
import { createTaskSchema, type CreateTaskRequest } from '../../contract/wire/task';
import { parseCancelAfter } from '../platform/http/cancel-after';
import type { ModelCatalog } from '../../common/config/model-catalog';

export interface ParsedCreateTask {
  /** Fields absent from the body are left out, so a request's hash stays what it was before they existed. */
  request: CreateTaskRequest;
  /** The model the task runs on: the one named, else the default. */
  model: TaskModel;
  priority: TaskPriority;
  /** From the body's deadline or the Cancel-After header, in UTC. */
  deadline?: string;
}

/**
 * Validates a create body (and its Cancel-After header) at the edge; everything after this works
 * with a well-formed request.
 */
export function parseCreateTaskRequest(body: unknown, maxTextBytes: number, models: ModelCatalog, cancelAfter?: string, now: Date = new Date()): ParsedCreateTask {
  const parsed = createTaskSchema.safeParse(body);
  if (!parsed.success) throw requestError(parsed.error, body);
  const { input, model: named, priority, deadline } = parsed.data;
  checkTextSize(input, maxTextBytes, 'input.text');
  const model = offeredModel(models, named);
  const request: CreateTaskRequest = { task_type: 'summarize', input: pickDefined(input) };
  if (named !== undefined) request.model = named;
  if (priority !== undefined) request.priority = priority;
  if (deadline !== undefined) request.deadline = deadline;
  return { request, model, priority: priority ?? 'normal', deadline: resolveDeadline(deadline, cancelAfter, now) };
}

export function checkTextSize(input: SummarizeInput, maxTextBytes: number, field: string): void {
  if (Buffer.byteLength(input.text, 'utf8') > maxTextBytes) {
    throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `${field} is larger than ${maxTextBytes} bytes`);
  }
}

/** The model named, else the default; a name the service does not offer is UNKNOWN_MODEL. */
export function offeredModel(models: ModelCatalog, named: string | undefined): TaskModel {
  const model = models.taskModel(named);
  if (!model) throw new ApiError(400, 'UNKNOWN_MODEL', `model "${named}" is not offered; use one of: ${models.names.join(', ')}`);
  return model;
}

const LONGEST_DEADLINE_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * The task's deadline in UTC, the earlier of the body's and Cancel-After's; one already past is
 * accepted, and fails the task at once, as a task that waited past it in a queue would.
 */
export function resolveDeadline(deadline: string | undefined, cancelAfter: string | undefined, now: Date): string | undefined {
  const candidates: number[] = [];
  if (deadline !== undefined) candidates.push(Date.parse(deadline));
  if (cancelAfter !== undefined) candidates.push(now.getTime() + parseCancelAfter(cancelAfter));
  const earliest = Math.min(...candidates);
  // No task waits a year: a later deadline (or an absurd Cancel-After) sets none.
  return candidates.length === 0 || earliest - now.getTime() > LONGEST_DEADLINE_MS ? undefined : new Date(earliest).toISOString();
}

/**
 * A task_type that is a string the service does not run is UNSUPPORTED_TASK_TYPE, so clients can
 * tell "not yet" from "malformed"; it is reported only once the rest of the body is valid.
 */
export function requestError(error: z.ZodError, body: unknown): ApiError {
  const taskType = typeof body === 'object' && body !== null ? (body as { task_type?: unknown }).task_type : undefined;
  const unsupportedType = (issue: z.core.$ZodIssue) => typeof taskType === 'string' && issue.path.length === 1 && issue.path[0] === 'task_type';
  const malformed = error.issues.find((issue) => !unsupportedType(issue));
  if (malformed || typeof taskType !== 'string') return ApiError.invalidRequest(describeIssue(malformed ?? error.issues[0]));
  return new ApiError(400, 'UNSUPPORTED_TASK_TYPE', `task_type "${quotedInput(taskType)}" is not supported; use one of: ${TASK_TYPES.join(', ')}`);
}

export function pickDefined(input: SummarizeInput): SummarizeInput {
  return input.max_sentences === undefined ? { text: input.text } : { text: input.text, max_sentences: input.max_sentences };
}
