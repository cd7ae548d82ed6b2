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

/**
 * A token bucket per partition key (an API key id, an organisation in an environment, a client address): `burst`
 * tokens, refilled continuously at `perMinute`, wherever its buckets are kept.
 */
export class RateLimit {
  readonly tokensPerMs: number;

  constructor(readonly policy: RateLimitPolicy) {
    this.tokensPerMs = policy.perMinute / 60_000;
  }

  /** Seconds an empty bucket takes to fill: the policy's window for `burst` requests. */
  get windowSeconds(): number {
    return Math.max(1, Math.ceil(this.policy.burst / this.tokensPerMs / 1000));
  }

  /** The decision once a bucket holds `left` tokens after the request. */
  decision(allowed: boolean, left: number): RateLimitDecision {
    const untilNextMs = (Math.floor(left) + 1 - left) / this.tokensPerMs;
    return { allowed, remaining: Math.floor(left), secondsUntilNext: Math.max(1, Math.ceil(untilNextMs / 1000)) };
  }
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * One policy's buckets in this process's memory. Buckets untouched long enough to be full again
 * are forgotten, which is the same as keeping them.
 */
export class TokenBucketLimiter extends RateLimit {
  private readonly buckets: LRUCache<string, Bucket>;

  constructor(
    policy: RateLimitPolicy,
    private readonly now: () => number = () => performance.now(),
  ) {
    super(policy);
    this.buckets = new LRUCache({ max: 100_000, ttl: Math.ceil(policy.burst / this.tokensPerMs) });
  }

  /** Spends a token of the key's bucket if it has one. */
  take(partitionKey: string): RateLimitDecision {
    const now = this.now();
    const tokens = this.tokensAt(partitionKey, now);
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    this.buckets.set(partitionKey, { tokens: left, updatedAt: now });
    return this.decision(allowed, left);
  }

  /** Whether the key's bucket has a token, spending none. */
  peek(partitionKey: string): RateLimitDecision {
    const tokens = this.tokensAt(partitionKey, this.now());
    return this.decision(tokens >= 1, tokens);
  }

  private tokensAt(partitionKey: string, now: number): number {
    const bucket = this.buckets.get(partitionKey);
    if (!bucket) return this.policy.burst;
    return Math.min(this.policy.burst, bucket.tokens + Math.max(0, now - bucket.updatedAt) * this.tokensPerMs);
  }
}
