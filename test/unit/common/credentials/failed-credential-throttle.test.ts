import { clientOf, FailedCredentialThrottle } from '../../../../src/common/credentials/failed-credential-throttle';
import { TokenBucketLimiter } from '../../../../src/common/rate-limits/token-bucket';

function throttle(perClientBurst: number, inAllBurst: number) {
  const clock = { now: 0 };
  const limiter = (burst: number) => new TokenBucketLimiter({ name: 'failures', perMinute: 60, burst }, () => clock.now);
  return { clock, throttle: new FailedCredentialThrottle(limiter(perClientBurst), limiter(inAllBurst)) };
}

const refused = () => undefined;
const valid = () => 'acme';

describe('the throttle on failed credentials', () => {
  it('checks a client until its failures are spent, then refuses before checking', async () => {
    const { throttle: failures } = throttle(3, 100);
    const check = jest.fn(refused);
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push((await failures.attempt('192.0.2.1', check)).outcome);
    expect(outcomes).toEqual(['refused', 'refused', 'refused', 'throttled', 'throttled']);
    expect(check).toHaveBeenCalledTimes(3);
  });

  it('says how long to wait, and checks again once a failure has refilled', async () => {
    const { clock, throttle: failures } = throttle(1, 100);
    await failures.attempt('192.0.2.1', refused);
    expect(await failures.attempt('192.0.2.1', valid)).toEqual({ outcome: 'throttled', retryAfterSeconds: 1 });
    clock.now += 1000;
    expect(await failures.attempt('192.0.2.1', valid)).toEqual({ outcome: 'accepted', identity: 'acme' });
  });

  it('counts no failure for a valid credential', async () => {
    const { throttle: failures } = throttle(1, 100);
    for (let i = 0; i < 5; i++) expect((await failures.attempt('192.0.2.1', valid)).outcome).toBe('accepted');
  });

  it('still checks a credential the store is known to hold when the client is throttled, and asks only then', async () => {
    const { throttle: failures } = throttle(1, 100);
    const known = jest.fn(async () => true);
    await failures.attempt('192.0.2.1', refused, known);
    expect(known).not.toHaveBeenCalled();
    expect((await failures.attempt('192.0.2.1', valid, known)).outcome).toBe('accepted');
    expect((await failures.attempt('192.0.2.1', valid, async () => false)).outcome).toBe('throttled');
  });

  it('keeps one client from spending another’s failures', async () => {
    const { throttle: failures } = throttle(1, 100);
    await failures.attempt('192.0.2.1', refused);
    expect((await failures.attempt('192.0.2.2', valid)).outcome).toBe('accepted');
  });

  it('bounds the failures of all clients together, however many addresses send them', async () => {
    const { throttle: failures } = throttle(5, 3);
    for (let i = 0; i < 3; i++) await failures.attempt(`192.0.2.${i}`, refused);
    expect((await failures.attempt('198.51.100.7', valid)).outcome).toBe('throttled');
  });
});

describe('a client', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::ffff', '2001:db8:1:2::/64'],
  ])('%s counts as %s', (address, client) => {
    expect(clientOf(address)).toBe(client);
  });
});
