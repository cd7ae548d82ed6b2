import { rateLimitHeaders } from '../../../../src/api/http/rate-limit-headers';
import { MemoryCreateRateLimits, TokenBucketLimiter, type RateLimitOutcome } from '../../../../src/api/http/rate-limit';

function limiter(perMinute: number, burst: number) {
  const clock = { now: 0 };
  return { clock, limiter: new TokenBucketLimiter({ name: 'creates', perMinute, burst }, () => clock.now) };
}

describe('token bucket', () => {
  it('allows a burst of exactly `burst` requests, then refuses', () => {
    const { limiter: bucket } = limiter(600, 100);
    const decisions = Array.from({ length: 101 }, () => bucket.take('key_a'));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(100);
    expect(decisions[99]).toMatchObject({ allowed: true, remaining: 0 });
    expect(decisions[100]).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('refills continuously at the per-minute rate', () => {
    const { clock, limiter: bucket } = limiter(600, 100);
    for (let i = 0; i < 100; i++) bucket.take('key_a');
    clock.now += 99;
    expect(bucket.take('key_a').allowed).toBe(false);
    clock.now += 1;
    expect(bucket.take('key_a').allowed).toBe(true);
  });

  it('sustains the per-minute rate indefinitely once the burst is spent', () => {
    const { clock, limiter: bucket } = limiter(60, 10);
    for (let i = 0; i < 10; i++) bucket.take('key_a');
    let allowed = 0;
    for (let ms = 0; ms < 10 * 60_000; ms += 250) {
      clock.now += 250;
      if (bucket.take('key_a').allowed) allowed++;
    }
    expect(allowed).toBe(600);
  });

  it('never holds more than `burst` tokens after a long quiet spell', () => {
    const { clock, limiter: bucket } = limiter(600, 5);
    bucket.take('key_a');
    clock.now += 24 * 60 * 60 * 1000;
    const allowed = Array.from({ length: 10 }, () => bucket.take('key_a')).filter((decision) => decision.allowed);
    expect(allowed).toHaveLength(5);
  });

  it('keeps one bucket per key', () => {
    const { limiter: bucket } = limiter(60, 1);
    expect(bucket.take('key_a').allowed).toBe(true);
    expect(bucket.take('key_a').allowed).toBe(false);
    expect(bucket.take('key_b').allowed).toBe(true);
  });

  it('says how many whole seconds until the next request is allowed, at least one', () => {
    const { clock, limiter: bucket } = limiter(6, 2);
    bucket.take('key_a');
    bucket.take('key_a');
    expect(bucket.take('key_a')).toEqual({ allowed: false, remaining: 0, secondsUntilNext: 10 });
    clock.now += 4_000;
    expect(bucket.take('key_a').secondsUntilNext).toBe(6);
    clock.now += 5_999;
    expect(bucket.take('key_a').secondsUntilNext).toBe(1);
  });
});

describe('the create limits in memory', () => {
  function limits() {
    return new MemoryCreateRateLimits(
      new TokenBucketLimiter({ name: 'creates', perMinute: 1, burst: 1 }, () => 0),
      new TokenBucketLimiter({ name: 'organisation-creates', perMinute: 1, burst: 2 }, () => 0),
    );
  }
  const names = (outcomes: RateLimitOutcome[]) => outcomes.map(([limit, decision]) => [limit.policy.name, decision.allowed]);

  it("count the key's bucket, then the organisation's", async () => {
    expect(names(await limits().spend('key_a', 'sandbox/acme'))).toEqual([
      ['creates', true],
      ['organisation-creates', true],
    ]);
  });

  it("leave the organisation's bucket alone when the key refuses the create", async () => {
    const shared = limits();
    await shared.spend('key_a', 'sandbox/acme');
    expect(names(await shared.spend('key_a', 'sandbox/acme'))).toEqual([['creates', false]]);
    expect(names(await shared.spend('key_b', 'sandbox/acme'))).toEqual([
      ['creates', true],
      ['organisation-creates', true],
    ]);
    expect(names(await shared.spend('key_c', 'sandbox/acme'))).toEqual([
      ['creates', true],
      ['organisation-creates', false],
    ]);
  });
});

describe('RateLimit headers (draft-ietf-httpapi-ratelimit-headers)', () => {
  it('advertise the burst as the quota over the seconds an empty bucket takes to refill', () => {
    const { limiter: bucket } = limiter(600, 100);
    expect(rateLimitHeaders([[bucket, bucket.take('key_a')]])).toEqual({
      'ratelimit-policy': '"creates";q=100;w=10',
      ratelimit: '"creates";r=99;t=1',
    });
  });

  it('report no quota left and the wait on a refusal', () => {
    const { limiter: bucket } = limiter(6, 1);
    bucket.take('key_a');
    expect(rateLimitHeaders([[bucket, bucket.take('key_a')]])).toEqual({
      'ratelimit-policy': '"creates";q=1;w=10',
      ratelimit: '"creates";r=0;t=10',
    });
  });

  it('list every limit the request was counted against, in the order they were checked', () => {
    const { limiter: perKey } = limiter(600, 100);
    const perOrganisation = new TokenBucketLimiter({ name: 'organisation-creates', perMinute: 1200, burst: 200 }, () => 0);
    expect(rateLimitHeaders([[perKey, perKey.take('key_a')], [perOrganisation, perOrganisation.take('sandbox/acme')]])).toEqual({
      'ratelimit-policy': '"creates";q=100;w=10, "organisation-creates";q=200;w=10',
      ratelimit: '"creates";r=99;t=1, "organisation-creates";r=199;t=1',
    });
  });
});
