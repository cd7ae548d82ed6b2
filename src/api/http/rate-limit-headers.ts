import type { CreateRateLimiter, RateLimitDecision } from './rate-limit';

/** One limit a request was counted against, and what it decided. */
export type RateLimitOutcome = readonly [CreateRateLimiter, RateLimitDecision];

/**
 * RateLimit-Policy and RateLimit as structured-field lists (draft-ietf-httpapi-ratelimit-headers),
 * one item per limit the request was counted against: each policy says `q` requests per `w`
 * seconds (the bucket's burst and the time it takes to refill), each service limit says `r`
 * requests are available now and `t` seconds until that grows.
 */
export function rateLimitHeaders(outcomes: readonly RateLimitOutcome[]): Record<string, string> {
  return {
    'ratelimit-policy': outcomes.map(([limiter]) => `"${limiter.policy.name}";q=${limiter.policy.burst};w=${limiter.windowSeconds}`).join(', '),
    ratelimit: outcomes.map(([limiter, decision]) => `"${limiter.policy.name}";r=${decision.remaining};t=${decision.secondsUntilNext}`).join(', '),
  };
}
