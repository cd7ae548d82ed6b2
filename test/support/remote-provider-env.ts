/** The environment that points a worker's summaries at an OpenAI-compatible stand-in (held or scripted). */
export function remoteProviderEnv(baseUrl: string): { SUMMARIZER_PROVIDER: 'openai-compatible'; OPENAI_BASE_URL: string } {
  return { SUMMARIZER_PROVIDER: 'openai-compatible', OPENAI_BASE_URL: baseUrl };
}

/** The tokens every stand-in reports for a call, as a real provider's `usage` does. */
export const STAND_IN_USAGE = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 };

/** What the stand-ins answer: a chat completion as an OpenAI-compatible provider sends it, with `summary` as the reply. */
export function chatCompletionBody(summary: string): string {
  return JSON.stringify({ choices: [{ message: { content: summary } }], usage: STAND_IN_USAGE });
}
