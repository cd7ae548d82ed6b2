import { RateLimit, type RateLimitDecision, type TokenBucketLimiter } from '../../../common/rate-limits/token-bucket';

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
