import { TokenBucketLimiter } from '../../../../src/common/rate-limits/token-bucket';

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

describe('peeking at a token bucket', () => {
  it('says whether a token is there and when the next comes, spending none', () => {
    const { clock, limiter: bucket } = limiter(60, 2);
    expect(bucket.peek('key_a')).toMatchObject({ allowed: true, remaining: 2 });
    bucket.take('key_a');
    bucket.take('key_a');
    expect(bucket.peek('key_a')).toEqual({ allowed: false, remaining: 0, secondsUntilNext: 1 });
    clock.now += 1000;
    expect(bucket.peek('key_a').allowed).toBe(true);
    expect(bucket.peek('key_a').allowed).toBe(true);
    expect(bucket.take('key_a').allowed).toBe(true);
    expect(bucket.peek('key_a').allowed).toBe(false);
  });
});
