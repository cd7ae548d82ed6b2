import type { RateLimitOutcome } from './rate-limit';

/**
 * RateLimit-Policy and RateLimit as structured-field lists (draft-ietf-httpapi-ratelimit-headers),
 * one item per limit the request was counted against: each policy says `q` requests per `w`
 * seconds (the bucket's burst and the time it takes to refill), each service limit says `r`
 * requests are available now and `t` seconds until that grows.
 */
export function rateLimitHeaders(outcomes: readonly RateLimitOutcome[]): Record<string, string> {
  return {
    'ratelimit-policy': outcomes.map(([limit]) => `"${limit.policy.name}";q=${limit.policy.burst};w=${limit.windowSeconds}`).join(', '),
    ratelimit: outcomes.map(([limit, decision]) => `"${limit.policy.name}";r=${decision.remaining};t=${decision.secondsUntilNext}`).join(', '),
  };
}
