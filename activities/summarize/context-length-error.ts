// How the providers Assay meets say, in the body of a 4xx, that a request is longer than the
// model's context window, and the window when they say it:
// - OpenAI, and llama-cpp-python's server after it: `error.code` `context_length_exceeded`, the
//   message "This model's maximum context length is N tokens. However, you requested …".
// - vLLM: its 400 says "This model's maximum context length is N tokens" ("However, you requested
//   …", or "… and your request has M input tokens"), under `error` in newer versions and at the top
//   level in older ones, with `code` 400.
// - llama.cpp's own server (llama-server): `error.type` `exceed_context_size_error` with `n_ctx`,
//   "request (M tokens) exceeds the available context size (N tokens)"; older versions said "the
//   request exceeds the available context size, try increasing it" without the figure.

const MAXIMUM_CONTEXT = /maximum context length is (\d+) tokens/i;
const AVAILABLE_CONTEXT = /exceeds the available context size(?: \((\d+) tokens\))?/i;

/** A provider's refusal of a request as longer than the model's context window. */
export interface ContextLengthExceeded {
  /** The window the provider said the model has, when it said it. */
  contextTokens?: number;
}

interface ErrorObject {
  message?: unknown;
  code?: unknown;
  type?: unknown;
  n_ctx?: unknown;
}

/** The refusal the body of a 4xx answer describes, or undefined when it is about something else. */
export function contextLengthExceeded(body: string): ContextLengthExceeded | undefined {
  const error = errorObjectOf(body);
  const message = typeof error.message === 'string' ? error.message : '';
  const maximum = MAXIMUM_CONTEXT.exec(message);
  const available = AVAILABLE_CONTEXT.exec(message);
  if (!maximum && !available && error.code !== 'context_length_exceeded' && error.type !== 'exceed_context_size_error') return undefined;
  const contextTokens = [error.n_ctx, maximum?.[1], available?.[1]].map(Number).find((tokens) => Number.isSafeInteger(tokens) && tokens > 0);
  return contextTokens === undefined ? {} : { contextTokens };
}

/** The error object of an OpenAI-style body (`{"error": {…}}`), of an older vLLM's (the object itself), or a text body as its message. */
function errorObjectOf(body: string): ErrorObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { message: body };
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const { error } = parsed as { error?: unknown };
  if (typeof error === 'string') return { message: error };
  return typeof error === 'object' && error !== null ? (error as ErrorObject) : (parsed as ErrorObject);
}
