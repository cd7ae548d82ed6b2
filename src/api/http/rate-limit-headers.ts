import type { CreateRateLimiter, RateLimitDecision } from './rate-limit';

/**
 * RateLimit-Policy and RateLimit as structured fields (draft-ietf-httpapi-ratelimit-headers):
 * the policy says `q` requests per `w` seconds (the bucket's burst and the time it takes to
 * refill), the service limit says `r` requests are available now and `t` seconds until that grows.
 */
export function rateLimitHeaders(limiter: CreateRateLimiter, decision: RateLimitDecision): Record<string, string> {
  const name = limiter.policy.name;
  return {
    'ratelimit-policy': `"${name}";q=${limiter.policy.burst};w=${limiter.windowSeconds}`,
    ratelimit: `"${name}";r=${decision.remaining};t=${decision.secondsUntilNext}`,
  };
}
