// High enough that the create limits never shape a load test: the bench and the chaos suite
// measure throughput and durability, and the limiter has its own tests.
const UNLIMITED = '1000000000';

/** Lifts the per-key create limit only: the noisy neighbour's as-shipped stack keeps the organisation's. */
export const UNLIMITED_KEY_CREATES = {
  RATE_LIMIT_CREATES_PER_MINUTE: UNLIMITED,
  RATE_LIMIT_CREATES_BURST: UNLIMITED,
};

/** Lifts every create limit. */
export const UNLIMITED_CREATES = {
  ...UNLIMITED_KEY_CREATES,
  RATE_LIMIT_ORGANISATION_CREATES_PER_MINUTE: UNLIMITED,
  RATE_LIMIT_ORGANISATION_CREATES_BURST: UNLIMITED,
};
