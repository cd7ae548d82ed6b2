/** The environment that points a worker's summaries at an OpenAI-compatible stand-in (held or scripted). */
export function remoteProviderEnv(baseUrl: string): { SUMMARIZER_PROVIDER: 'openai-compatible'; OPENAI_BASE_URL: string } {
  return { SUMMARIZER_PROVIDER: 'openai-compatible', OPENAI_BASE_URL: baseUrl };
}
