import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { KeyEnvironment } from '../keys/api-key';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a hostname resolves to; injectable so tests can make a name resolve anywhere. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/** Where a delivery may connect: the URL (for Host and SNI) and the one vetted address to dial. */
export interface VettedTarget {
  url: URL;
  address: ResolvedAddress;
}

/** The URL may not be used; the message says why and is safe to show the caller. */
export class WebhookUrlRefusedError extends Error {}

/** The name did not resolve; at delivery this is worth another attempt, at registration it is refused. */
export class WebhookHostUnresolvedError extends Error {}

export interface UrlPolicyOptions {
  allowInsecureSandbox: boolean;
  resolve?: HostResolver;
}

/** Why an address range is refused, in words the caller reads; ranges are ipaddr.js's names for the IANA registries. */
const REFUSED_RANGES: Readonly<Record<string, string>> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a shared (CGNAT) address',
  unspecified: 'an unspecified or "this network" address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  reserved: 'a reserved or documentation address',
  benchmarking: 'a reserved or documentation address',
  discard: 'a reserved or documentation address',
  rfc6052: 'a NAT64 address, which can reach IPv4 hosts behind it',
  rfc6145: 'an IPv4-translated address, which can reach IPv4 hosts behind it',
  '6to4': 'a 6to4 address, which can reach IPv4 hosts behind it',
  teredo: 'a Teredo address, which can reach IPv4 hosts behind it',
};

/** Checked before the range table: the metadata service sits inside link-local and private space. */
const CLOUD_METADATA = new Set(['169.254.169.254', 'fd00:ec2::254']);

/**
 * Why this address may not be reached, or undefined for a public unicast one. Only what ipaddr.js
 * classifies as public unicast passes: every other range, including the ones a newer registry adds
 * under a name this table does not know, is refused. An IPv4-mapped address is judged as the IPv4
 * address it carries, so `::ffff:127.0.0.1` is loopback.
 */
function refusalReason(address: string): { what: string; loopback: boolean } | undefined {
  const parsed = ipaddr.process(address);
  if (CLOUD_METADATA.has(parsed.toNormalizedString()) || CLOUD_METADATA.has(parsed.toString())) return { what: 'a cloud metadata address', loopback: false };
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  return { what: REFUSED_RANGES[range] ?? `a non-public address (${range})`, loopback: range === 'loopback' };
}

/**
 * SSRF guard, at registration and again before every delivery attempt (DNS answers change). Live
 * endpoints need https and public addresses only; sandbox endpoints may also use http and
 * loopback when the operator allows it. Every address the name resolves to must pass, and the
 * delivery dials the vetted address, so a second lookup cannot swap in another one.
 */
export async function vetWebhookUrl(raw: string, environment: KeyEnvironment, options: UrlPolicyOptions): Promise<VettedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlRefusedError('url: must be an absolute URL such as https://example.com/webhooks');
  }
  const insecureAllowed = environment === 'test' && options.allowInsecureSandbox;
  if (url.protocol !== 'https:' && !(insecureAllowed && url.protocol === 'http:')) {
    throw new WebhookUrlRefusedError(`url: must use https${environment === 'live' ? ' for a live endpoint' : ''}`);
  }
  if (url.username || url.password) throw new WebhookUrlRefusedError('url: must not contain credentials');
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(hostname);
  const addresses = literal ? [{ address: hostname, family: literal as 4 | 6 }] : await resolveHost(hostname, options.resolve ?? systemResolver);
  for (const address of addresses) {
    const refused = refusalReason(address.address);
    if (refused && !(refused.loopback && insecureAllowed)) {
      throw new WebhookUrlRefusedError(`url: ${hostname} resolves to ${refused.what} (${address.address}), which webhooks may not reach`);
    }
  }
  return { url, address: addresses[0] };
}

async function resolveHost(hostname: string, resolve: HostResolver): Promise<ResolvedAddress[]> {
  const addresses = await resolve(hostname).catch((error: unknown) => {
    throw new WebhookHostUnresolvedError(`url: ${hostname} could not be resolved (${error instanceof Error && 'code' in error ? String(error.code) : 'lookup failed'})`);
  });
  if (addresses.length === 0) throw new WebhookHostUnresolvedError(`url: ${hostname} could not be resolved`);
  return addresses;
}
