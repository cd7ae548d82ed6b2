import { AppConfig, InvalidConfigError } from '../../../../src/common/config/app-config';
import { trustedHop } from '../../../../src/common/config/trust-proxy';

const trustProxy = (value?: string) => new AppConfig(value === undefined ? {} : { TRUST_PROXY: value }).values.TRUST_PROXY;

describe('TRUST_PROXY', () => {
  it('is off by default, and when empty or false: no proxy is trusted', () => {
    expect(trustProxy()).toBe(false);
    expect(trustProxy('')).toBe(false);
    expect(trustProxy('false')).toBe(false);
    expect(trustedHop(false)).toBeUndefined();
  });

  it('trusts every hop with true', () => {
    expect(trustProxy('true')).toBe(true);
    expect(trustedHop(true)!('198.51.100.1', 5)).toBe(true);
  });

  it('trusts the nearest hops with a count: the socket peer is hop 0', () => {
    expect(trustProxy('2')).toBe(2);
    const trusted = trustedHop(2)!;
    expect([0, 1, 2].map((hop) => trusted('198.51.100.1', hop))).toEqual([true, true, false]);
  });

  it('trusts listed addresses, CIDR ranges and named ranges, whatever the hop', () => {
    expect(trustProxy(' 10.0.0.0/8, 192.168.1.7 ,loopback,')).toEqual(['10.0.0.0/8', '192.168.1.7', 'loopback']);
    const trusted = trustedHop(['10.0.0.0/8', 'loopback', 'fd00::/8'])!;
    expect(['10.1.2.3', '127.0.0.1', '::1', 'fd00::5', '192.168.1.7', '203.0.113.7'].map((address) => trusted(address, 0))).toEqual([true, true, true, true, false, false]);
  });

  it.each([
    ['0', /TRUST_PROXY: a hop count must be at least 1 \(false trusts no proxy\)/],
    ['10.0.0.0/8,proxy.internal', /TRUST_PROXY: "proxy.internal": not an IP address, a CIDR range, loopback, linklocal or uniquelocal/],
    ['10.0.0.0/33, yes', /TRUST_PROXY: "10.0.0.0\/33", "yes": not an IP address/],
  ])('refuses %p with a message naming the variable', (value, message) => {
    expect(() => trustProxy(value)).toThrow(InvalidConfigError);
    expect(() => trustProxy(value)).toThrow(message);
  });
});
