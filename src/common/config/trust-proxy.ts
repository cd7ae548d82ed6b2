import proxyAddr from '@fastify/proxy-addr';
import { z } from 'zod';

/**
 * TRUST_PROXY, in the forms of Fastify's trustProxy that name a proxy: off, every hop, the
 * nearest N hops, or the proxies' addresses (IPs, CIDR ranges, `loopback`, `linklocal`,
 * `uniquelocal`).
 */
export type TrustProxy = boolean | number | readonly string[];

/**
 * Whether a hop is a proxy whose forwarded headers count: hop 0 is the socket's peer, then the
 * addresses of X-Forwarded-For from the right.
 */
export type TrustedHop = (address: string, hop: number) => boolean;

/** "false" (the default), "true", a hop count, or a comma-separated list of addresses and CIDR ranges. */
export const trustProxy = z.string().transform((value, context): TrustProxy => {
  const text = value.trim();
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops >= 1) return hops;
    context.addIssue({ code: 'custom', message: 'a hop count must be at least 1 (false trusts no proxy)' });
    return z.NEVER;
  }
  const entries = text.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  const invalid = entries.filter((entry) => !compiles(entry));
  if (invalid.length > 0) {
    context.addIssue({ code: 'custom', message: `${invalid.map((entry) => `"${entry}"`).join(', ')}: not an IP address, a CIDR range, loopback, linklocal or uniquelocal` });
    return z.NEVER;
  }
  return entries;
});

/**
 * The one trust rule of the API (handed to Fastify as its trustProxy, which then answers
 * request.protocol, request.host and request.ip with it) and the codec server; undefined when no
 * proxy is trusted and forwarded headers are ignored.
 */
export function trustedHop(setting: TrustProxy): TrustedHop | undefined {
  if (setting === false) return undefined;
  if (setting === true) return () => true;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile([...setting]);
}

function compiles(entry: string): boolean {
  try {
    proxyAddr.compile(entry);
    return true;
  } catch {
    return false;
  }
}
