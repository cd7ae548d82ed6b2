import * as fs from 'node:fs';
import * as net from 'node:net';
import { freePort, freePortPair } from '../../../src/embedded/free-port';

function ephemeralStart(): number {
  return Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
}

function bind(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('picking a free port', () => {
  it('picks below the kernel’s ephemeral range, where outgoing connections never take a port', async () => {
    const ports = await Promise.all(Array.from({ length: 100 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralStart());
    }
  });

  it('picks a port that can be bound at once', async () => {
    const server = await bind(await freePort());
    await new Promise((resolve) => server.close(resolve));
  });

  it('picks a pair of ports that can both be bound at once (two API instances)', async () => {
    const port = await freePortPair();
    const servers = [await bind(port), await bind(port + 1)];
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('never picks a port twice in one process, though each pick is released until its owner binds it', async () => {
    // 2,000 random picks from ~20,000 ports would repeat dozens of times if picks were not remembered.
    const pairs = await Promise.all(Array.from({ length: 100 }, () => freePortPair()));
    const singles = await Promise.all(Array.from({ length: 1_800 }, () => freePort()));
    const picked = [...pairs.flatMap((port) => [port, port + 1]), ...singles];
    expect(new Set(picked).size).toBe(picked.length);
  });
});
