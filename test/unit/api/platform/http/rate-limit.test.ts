import { rateLimitHeaders } from '../../../../../src/api/platform/http/rate-limit-headers';
import { MemoryCreateRateLimits, type RateLimitOutcome } from '../../../../../src/api/platform/http/rate-limit';
import { TokenBucketLimiter } from '../../../../../src/common/rate-limits/token-bucket';

function limiter(perMinute: number, burst: number) {
  const clock = { now: 0 };
  return { clock, limiter: new TokenBucketLimiter({ name: 'creates', perMinute, burst }, () => clock.now) };
}

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
