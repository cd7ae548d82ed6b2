import { Pool } from 'pg';
import { CreateRateLimiter, type RateLimitDecision, type RateLimitPolicy } from './rate-limit';

/** A slow database must fail a create quickly rather than hold it open. */
const QUERY_TIMEOUT_MS = 5000;

// Instances starting together against a new database would race CREATE TABLE IF NOT EXISTS (it
// is not atomic in PostgreSQL); one multi-statement query is one transaction, so the lock holds it.
const CREATE_TABLE_LOCK_ID = 0x4153_5341_5952;

const CREATE_TABLE = `SELECT pg_advisory_xact_lock(${CREATE_TABLE_LOCK_ID});
CREATE TABLE IF NOT EXISTS rate_limit_buckets (
  policy TEXT NOT NULL,
  partition_key TEXT NOT NULL,
  tokens DOUBLE PRECISION NOT NULL,
  allowed BOOLEAN NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (policy, partition_key)
)`;

// The bucket's tokens now: what it held, refilled for the time since, capped at the burst. One
// clock (the database's) for every instance; a request that waited for the row lock behind a
// later-stamped one counts no time rather than negative time.
const REFILLED = `LEAST($3::double precision, bucket.tokens
  + GREATEST(0, EXTRACT(EPOCH FROM excluded.updated_at - bucket.updated_at)::double precision) * $4::double precision)`;

/**
 * Refill and spend in one statement: the row lock of ON CONFLICT DO UPDATE serialises concurrent
 * requests for a key across all instances, and a key's first request finds a full bucket.
 * `allowed` is stored with the row because RETURNING sees only the new tokens, not whether one was spent.
 */
const TAKE = `INSERT INTO rate_limit_buckets AS bucket (policy, partition_key, tokens, allowed, updated_at)
VALUES ($1, $2, $3::double precision - 1, true, clock_timestamp())
ON CONFLICT (policy, partition_key) DO UPDATE SET
  tokens = ${REFILLED} - CASE WHEN ${REFILLED} >= 1 THEN 1 ELSE 0 END,
  allowed = ${REFILLED} >= 1,
  updated_at = GREATEST(bucket.updated_at, excluded.updated_at)
RETURNING tokens, allowed`;

/** Connections one limiter's pool may hold at once; an API instance opens one limiter per create limit. */
export const RATE_LIMIT_POOL_SIZE = 5;

/**
 * The create limit's buckets in PostgreSQL (DATABASE_URL), so all API instances share one limit
 * per key. Its table is created here at open, apart from the key store's migrations.
 */
export class PostgresTokenBucketLimiter extends CreateRateLimiter {
  private readonly tokensPerSecond: number;

  private constructor(
    policy: RateLimitPolicy,
    private readonly pool: Pool,
  ) {
    super(policy);
    this.tokensPerSecond = this.tokensPerMs * 1000;
  }

  static async open(connectionString: string, policy: RateLimitPolicy): Promise<PostgresTokenBucketLimiter> {
    const pool = new Pool({ connectionString, max: RATE_LIMIT_POOL_SIZE, connectionTimeoutMillis: QUERY_TIMEOUT_MS, query_timeout: QUERY_TIMEOUT_MS });
    // An idle connection dropped by the server emits here; unheard, it would crash the process.
    pool.on('error', () => undefined);
    try {
      await pool.query(CREATE_TABLE);
    } catch (error) {
      await pool.end();
      throw error;
    }
    return new PostgresTokenBucketLimiter(policy, pool);
  }

  async take(partitionKey: string): Promise<RateLimitDecision> {
    const { rows } = await this.pool.query<{ tokens: number; allowed: boolean }>(TAKE, [
      this.policy.name,
      partitionKey,
      this.policy.burst,
      this.tokensPerSecond,
    ]);
    return this.decision(rows[0].allowed, rows[0].tokens);
  }

  override async close(): Promise<void> {
    await this.pool.end();
  }
}
