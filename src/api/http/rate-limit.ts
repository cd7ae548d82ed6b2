import { LRUCache } from 'lru-cache';

export interface RateLimitPolicy {
  /** Names the policy in the RateLimit-Policy and RateLimit headers. */
  name: string;
  perMinute: number;
  /** Bucket capacity: how many requests may arrive at once after a quiet spell. */
  burst: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Whole requests left in the bucket after this one. */
  remaining: number;
  /** Seconds until `remaining` grows by one; also the Retry-After of a refusal. */
  secondsUntilNext: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * One token bucket per partition key (an API key id), in this process's memory: `burst` tokens,
 * refilled continuously at `perMinute`. Buckets untouched long enough to be full again are
 * forgotten, which is the same as keeping them.
 */
export class TokenBucketLimiter {
  private readonly buckets: LRUCache<string, Bucket>;
  private readonly tokensPerMs: number;

  constructor(
    readonly policy: RateLimitPolicy,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokensPerMs = policy.perMinute / 60_000;
    this.buckets = new LRUCache({ max: 100_000, ttl: Math.ceil(policy.burst / this.tokensPerMs) });
  }

  /** Seconds an empty bucket takes to fill: the policy's window for `burst` requests. */
  get windowSeconds(): number {
    return Math.max(1, Math.ceil(this.policy.burst / this.tokensPerMs / 1000));
  }

  take(partitionKey: string): RateLimitDecision {
    const now = this.now();
    const bucket = this.buckets.get(partitionKey) ?? { tokens: this.policy.burst, updatedAt: now };
    const elapsed = Math.max(0, now - bucket.updatedAt);
    const tokens = Math.min(this.policy.burst, bucket.tokens + elapsed * this.tokensPerMs);
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    this.buckets.set(partitionKey, { tokens: left, updatedAt: now });
    const untilNextMs = (Math.floor(left) + 1 - left) / this.tokensPerMs;
    return { allowed, remaining: Math.floor(left), secondsUntilNext: Math.max(1, Math.ceil(untilNextMs / 1000)) };
  }
}
