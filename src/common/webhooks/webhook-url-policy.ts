import { promises as dns } from 'node:dns';
import { BlockList, isIP } from 'node:net';
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

interface Range {
  what: string;
  list: BlockList;
}

function range(what: string, v4: string[], v6: string[]): Range {
  const list = new BlockList();
  for (const cidr of v4) list.addSubnet(cidr.split('/')[0], Number(cidr.split('/')[1]), 'ipv4');
  for (const cidr of v6) list.addSubnet(cidr.split('/')[0], Number(cidr.split('/')[1]), 'ipv6');
  return { what, list };
}

const LOOPBACK = range('a loopback address', ['127.0.0.0/8'], ['::1/128']);

/** Addresses a webhook must never reach: the operator's own network and the cloud's metadata service. */
const FORBIDDEN: Range[] = [
  range('a cloud metadata address', ['169.254.169.254/32'], ['fd00:ec2::254/128']),
  LOOPBACK,
  range('a private address', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'], ['fc00::/7']),
  range('a link-local address', ['169.254.0.0/16'], ['fe80::/10']),
  range('a shared (CGNAT) address', ['100.64.0.0/10'], []),
  range('an unspecified or "this network" address', ['0.0.0.0/8'], ['::/128']),
  range('a multicast address', ['224.0.0.0/4'], ['ff00::/8']),
  range('a reserved address', ['240.0.0.0/4', '192.0.0.0/24', '198.18.0.0/15'], []),
];

const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** An IPv4-mapped IPv6 address is checked as the IPv4 address it carries, so `::ffff:127.0.0.1` is loopback. */
function normalise(address: ResolvedAddress): ResolvedAddress {
  const mapped = address.family === 6 ? IPV4_MAPPED.exec(address.address) : null;
  return mapped ? { address: mapped[1], family: 4 } : address;
}

function forbiddenRange(address: ResolvedAddress): Range | undefined {
  const { address: ip, family } = normalise(address);
  return FORBIDDEN.find((candidate) => candidate.list.check(ip, family === 6 ? 'ipv6' : 'ipv4'));
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
    const forbidden = forbiddenRange(address);
    if (forbidden && !(forbidden === LOOPBACK && insecureAllowed)) {
      throw new WebhookUrlRefusedError(`url: ${hostname} resolves to ${forbidden.what} (${address.address}), which webhooks may not reach`);
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
