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

/** One limit a request was counted against, and what it decided. */
export type RateLimitOutcome = readonly [RateLimit, RateLimitDecision];

/**
 * What a create spends: a token of its key's bucket, then, if the key had one, one of its
 * organisation's (in that environment), so a customer's many keys together add no more than one
 * organisation's share. The DI token of the API's create limits.
 */
export abstract class CreateRateLimits {
  constructor(
    readonly perKey: RateLimit,
    readonly perOrganisation: RateLimit,
  ) {}

  /** The outcomes in the order the buckets were counted; a refusal, if any, is the last. */
  abstract spend(keyPartition: string, organisationPartition: string): Promise<RateLimitOutcome[]>;

  close(): Promise<void> {
    return Promise.resolve();
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
    const bucket = this.buckets.get(partitionKey) ?? { tokens: this.policy.burst, updatedAt: now };
    const elapsed = Math.max(0, now - bucket.updatedAt);
    const tokens = Math.min(this.policy.burst, bucket.tokens + elapsed * this.tokensPerMs);
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    this.buckets.set(partitionKey, { tokens: left, updatedAt: now });
    return this.decision(allowed, left);
  }
}

/** The create limits in this process's memory: N instances allow N times the limit (see PostgresCreateRateLimits). */
export class MemoryCreateRateLimits extends CreateRateLimits {
  constructor(
    override readonly perKey: TokenBucketLimiter,
    override readonly perOrganisation: TokenBucketLimiter,
  ) {
    super(perKey, perOrganisation);
  }

  async spend(keyPartition: string, organisationPartition: string): Promise<RateLimitOutcome[]> {
    const key = this.perKey.take(keyPartition);
    if (!key.allowed) return [[this.perKey, key]];
    return [
      [this.perKey, key],
      [this.perOrganisation, this.perOrganisation.take(organisationPartition)],
    ];
  }
}
