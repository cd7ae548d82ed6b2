import { Pool } from 'pg';
import { RateLimit, type RateLimitPolicy } from '../../../common/rate-limits/token-bucket';
import { CreateRateLimits, type RateLimitOutcome } from './rate-limit';

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

/**
 * The bucket's tokens now: what it held, refilled for the time since, capped at the burst. One
 * clock (the database's) for every instance; a request that waited for the row lock behind a
 * later-stamped one counts no time rather than negative time.
 */
function refilled(burst: string, tokensPerSecond: string): string {
  return `LEAST(${burst}::double precision, bucket.tokens
  + GREATEST(0, EXTRACT(EPOCH FROM excluded.updated_at - bucket.updated_at)::double precision) * ${tokensPerSecond}::double precision)`;
}

/**
 * Refill and spend: the row lock of ON CONFLICT DO UPDATE serialises concurrent requests for a
 * bucket across all instances, and a bucket's first request finds it full. `allowed` is stored
 * with the row because RETURNING sees only the new tokens, not whether one was spent.
 */
function spendOne(burst: string, tokensPerSecond: string): string {
  const tokens = refilled(burst, tokensPerSecond);
  return `ON CONFLICT (policy, partition_key) DO UPDATE SET
  tokens = ${tokens} - CASE WHEN ${tokens} >= 1 THEN 1 ELSE 0 END,
  allowed = ${tokens} >= 1,
  updated_at = GREATEST(bucket.updated_at, excluded.updated_at)
RETURNING tokens, allowed`;
}

/**
 * Both buckets in one statement, one round trip and one commit per create: the organisation's is
 * counted only when the key's allowed the create. Every create locks its key's row before its
 * organisation's, so concurrent creates never wait on each other in a cycle.
 */
const SPEND = `WITH spent_key AS (
  INSERT INTO rate_limit_buckets AS bucket (policy, partition_key, tokens, allowed, updated_at)
  VALUES ($1, $2, $3::double precision - 1, true, clock_timestamp())
  ${spendOne('$3', '$4')}
), spent_organisation AS (
  INSERT INTO rate_limit_buckets AS bucket (policy, partition_key, tokens, allowed, updated_at)
  SELECT $5, $6, $7::double precision - 1, true, clock_timestamp() FROM spent_key WHERE spent_key.allowed
  ${spendOne('$7', '$8')}
)
SELECT false AS organisation, tokens, allowed FROM spent_key
UNION ALL
SELECT true AS organisation, tokens, allowed FROM spent_organisation`;

interface SpentBucket {
  organisation: boolean;
  tokens: number;
  allowed: boolean;
}

/** Connections an API instance's create limits may hold at once. */
export const RATE_LIMIT_POOL_SIZE = 5;

/**
 * The create limits' buckets in PostgreSQL (DATABASE_URL), so all API instances share one limit
 * per key and per organisation. Their table is created here at open, apart from the key store's
 * migrations.
 */
export class PostgresCreateRateLimits extends CreateRateLimits {
  private constructor(
    perKey: RateLimitPolicy,
    perOrganisation: RateLimitPolicy,
    private readonly pool: Pool,
  ) {
    super(new RateLimit(perKey), new RateLimit(perOrganisation));
  }

  static async open(connectionString: string, perKey: RateLimitPolicy, perOrganisation: RateLimitPolicy): Promise<PostgresCreateRateLimits> {
    const pool = new Pool({ connectionString, max: RATE_LIMIT_POOL_SIZE, connectionTimeoutMillis: QUERY_TIMEOUT_MS, query_timeout: QUERY_TIMEOUT_MS });
    // An idle connection dropped by the server emits here; unheard, it would crash the process.
    pool.on('error', () => undefined);
    try {
      await pool.query(CREATE_TABLE);
    } catch (error) {
      await pool.end();
      throw error;
    }
    return new PostgresCreateRateLimits(perKey, perOrganisation, pool);
  }

  async spend(keyPartition: string, organisationPartition: string): Promise<RateLimitOutcome[]> {
    const { rows } = await this.pool.query<SpentBucket>(SPEND, [
      this.perKey.policy.name,
      keyPartition,
      this.perKey.policy.burst,
      this.perKey.tokensPerMs * 1000,
      this.perOrganisation.policy.name,
      organisationPartition,
      this.perOrganisation.policy.burst,
      this.perOrganisation.tokensPerMs * 1000,
    ]);
    // The key's row always comes back: its INSERT either inserts or updates.
    const key = rows.find((row) => !row.organisation) as SpentBucket;
    const organisation = rows.find((row) => row.organisation);
    const outcomes: RateLimitOutcome[] = [[this.perKey, this.perKey.decision(key.allowed, key.tokens)]];
    if (organisation) outcomes.push([this.perOrganisation, this.perOrganisation.decision(organisation.allowed, organisation.tokens)]);
    return outcomes;
  }

  override async close(): Promise<void> {
    await this.pool.end();
  }
}
