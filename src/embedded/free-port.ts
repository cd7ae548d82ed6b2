import * as fs from 'node:fs';
import * as net from 'node:net';
import { randomInt } from 'node:crypto';

// The kernel hands out ports of its ephemeral range by itself: to every bind to port 0 (the
// Temporal server picks its internal ports that way) and as the source port of every outgoing
// connection. A port picked there and released can be taken by any of those before its owner
// binds it, and a test suite makes thousands of connections. Ports below the range are only
// ever taken by an explicit bind, such as another pick of this function.
const LOWEST_PICK = 10_000;
const LINUX_PORT_RANGE = '/proc/sys/net/ipv4/ip_local_port_range';
// Linux's default; macOS's range (49152 up) starts above it.
const DEFAULT_EPHEMERAL_START = 32_768;
const ATTEMPTS = 50;

// The range is the machine's setting: read once.
let ephemeralStart: number | undefined;
// A pick is released at once and bound later by whoever asked for it: a stack that picks all its
// ports before it starts its processes would otherwise get the same free port twice, and one
// process's health check would be answered by another's listener.
const handedOut = new Set<number>();

/** A TCP port free on loopback right now and outside the ephemeral range, so tests, the bench and the chaos stack never collide with each other, with `npm start` or with outgoing connections. */
export async function freePort(): Promise<number> {
  const below = (ephemeralStart ??= ephemeralRangeStart());
  for (let attempt = 1; below > LOWEST_PICK && attempt <= ATTEMPTS; attempt++) {
    const port = randomInt(LOWEST_PICK, below);
    if (await claim(port)) return port;
  }
  const port = await listenOn(0);
  handedOut.add(port);
  return port;
}

/** A free port whose next port is free too: the cluster's two API instances listen on them. */
export async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (await claim(port + 1)) return port;
  }
}

/** Hands the port out if no earlier pick did and it is free; marked first, so concurrent picks cannot both take it. */
async function claim(port: number): Promise<boolean> {
  if (handedOut.has(port)) return false;
  handedOut.add(port);
  if (await listenOn(port).then(() => true, () => false)) return true;
  handedOut.delete(port);
  return false;
}

function ephemeralRangeStart(): number {
  try {
    const start = Number(fs.readFileSync(LINUX_PORT_RANGE, 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(start) && start > 0 ? start : DEFAULT_EPHEMERAL_START;
  } catch {
    return DEFAULT_EPHEMERAL_START;
  }
}

/** Binds the port (0 = the kernel's choice) on loopback, releases it and says which it was. */
function listenOn(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const bound = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(bound));
    });
  });
}
