import ipaddr from 'ipaddr.js';
import { TokenBucketLimiter, type RateLimitPolicy } from '../rate-limits/token-bucket';

/** Failed credentials one client may present: a burst, then one a second. */
export const FAILED_CREDENTIALS_PER_CLIENT: RateLimitPolicy = { name: 'failed-credentials', perMinute: 60, burst: 20 };

/** Failed credentials all clients together may present: bounds what unknown credentials cost the store, however many addresses send them. */
export const FAILED_CREDENTIALS_IN_ALL: RateLimitPolicy = { name: 'failed-credentials-in-all', perMinute: 6_000, burst: 200 };

const EVERY_CLIENT = '*';

export type CredentialAttempt<T> = { outcome: 'accepted'; identity: T } | { outcome: 'refused' } | { outcome: 'throttled'; retryAfterSeconds: number };

/**
 * Failed credentials, counted per client and for all clients. Once either count is spent, a
 * credential is refused before it is checked, unless `known` says the store holds it: a client
 * that shares an address with an attacker keeps working.
 */
export class FailedCredentialThrottle {
  constructor(
    private readonly perClient = new TokenBucketLimiter(FAILED_CREDENTIALS_PER_CLIENT),
    private readonly inAll = new TokenBucketLimiter(FAILED_CREDENTIALS_IN_ALL),
  ) {}

  /** `known`, asked only once the client is throttled, says without a lookup whether the credential exists. */
  async attempt<T>(address: string, check: () => T | undefined | Promise<T | undefined>, known?: () => Promise<boolean>): Promise<CredentialAttempt<T>> {
    const client = clientOf(address);
    const wait = Math.max(...[this.perClient.peek(client), this.inAll.peek(EVERY_CLIENT)].map((left) => (left.allowed ? 0 : left.secondsUntilNext)));
    if (wait > 0 && !(await known?.())) return { outcome: 'throttled', retryAfterSeconds: wait };
    const identity = await check();
    if (identity !== undefined) return { outcome: 'accepted', identity };
    this.perClient.take(client);
    this.inAll.take(EVERY_CLIENT);
    return { outcome: 'refused' };
  }
}

/** An IPv6 client is given a whole /64, so all its addresses are one client; an IPv4-mapped address is its IPv4 one. */
export function clientOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}
