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
 * A token bucket per partition key (an API key id, an organisation in an environment): `burst`
 * tokens, refilled continuously at `perMinute`, wherever it keeps its buckets.
 */
export abstract class CreateRateLimiter {
  protected readonly tokensPerMs: number;

  constructor(readonly policy: RateLimitPolicy) {
    this.tokensPerMs = policy.perMinute / 60_000;
  }

  /** Seconds an empty bucket takes to fill: the policy's window for `burst` requests. */
  get windowSeconds(): number {
    return Math.max(1, Math.ceil(this.policy.burst / this.tokensPerMs / 1000));
  }

  /** Spends a token of the key's bucket if it has one. */
  abstract take(partitionKey: string): RateLimitDecision | Promise<RateLimitDecision>;

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** The decision once a bucket holds `left` tokens after the request. */
  protected decision(allowed: boolean, left: number): RateLimitDecision {
    const untilNextMs = (Math.floor(left) + 1 - left) / this.tokensPerMs;
    return { allowed, remaining: Math.floor(left), secondsUntilNext: Math.max(1, Math.ceil(untilNextMs / 1000)) };
  }
}

/**
 * What a create spends: a token of its key's bucket, then one of its organisation's (in that
 * environment), so a customer's many keys together add no more than one organisation's share.
 * The DI token of the API's create limits.
 */
export class CreateRateLimits {
  constructor(
    readonly perKey: CreateRateLimiter,
    readonly perOrganisation: CreateRateLimiter,
  ) {}
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * The buckets in this process's memory (N instances allow N times the limit; see
 * PostgresTokenBucketLimiter). Buckets untouched long enough to be full again are forgotten,
 * which is the same as keeping them.
 */
export class TokenBucketLimiter extends CreateRateLimiter {
  private readonly buckets: LRUCache<string, Bucket>;

  constructor(
    policy: RateLimitPolicy,
    private readonly now: () => number = () => performance.now(),
  ) {
    super(policy);
    this.buckets = new LRUCache({ max: 100_000, ttl: Math.ceil(policy.burst / this.tokensPerMs) });
  }

  take(partitionKey: string): RateLimitDecision {
    const now = this.now();
    const bucket = this.buckets.get(partitionKey) ?? { tokens: this.policy.burst, updatedAt: now };
    const elapsed = Math.max(0, now - bucket.updatedAt);
    const tokens = Math.min(this.policy.burst, bucket.tokens + elapsed * this.tokensPerMs);
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    this.buckets.set(partitionKey, { tokens: left, updatedAt: now });
    return this.decision(allowed, left);
  }
}
