import { z } from 'zod';
import { ApiError } from '../http/api-error';
import { describeFirstIssue } from '../http/zod-issues';
import { TASK_TYPES, type SummarizeInput, type TaskType } from '../../contract';

export const createTaskSchema = z
  .object({
    task_type: z.string({ error: 'required, a string such as "summarize"' }),
    input: z
      .object({
        text: z.string({ error: 'required, a string' }),
        max_sentences: z.number().int().min(1).max(20).optional(),
      }, { error: 'required, an object with a text field' })
      .strict(),
  }, { error: 'must be a JSON object' })
  .strict();

export interface CreateTaskRequest {
  task_type: TaskType;
  input: SummarizeInput;
}

/** Validates a create body at the edge; everything after this works with a well-formed request. */
export function parseCreateTaskRequest(body: unknown, maxTextBytes: number): CreateTaskRequest {
  const parsed = createTaskSchema.safeParse(body);
  if (!parsed.success) throw ApiError.invalidRequest(describeFirstIssue(parsed.error));
  const { task_type: taskType, input } = parsed.data;
  if (!(TASK_TYPES as readonly string[]).includes(taskType)) {
    throw new ApiError(400, 'UNSUPPORTED_TASK_TYPE', `task_type "${truncate(taskType)}" is not supported; use one of: ${TASK_TYPES.join(', ')}`);
  }
  if (Buffer.byteLength(input.text, 'utf8') > maxTextBytes) {
    throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `input.text is larger than ${maxTextBytes} bytes`);
  }
  if (input.text.trim().length === 0) throw ApiError.invalidRequest('input.text: must contain some non-whitespace text');
  return { task_type: 'summarize', input: pickDefined(input) };
}

function pickDefined(input: SummarizeInput): SummarizeInput {
  return input.max_sentences === undefined ? { text: input.text } : { text: input.text, max_sentences: input.max_sentences };
}

function truncate(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
