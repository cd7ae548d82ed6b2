import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Connection } from '@temporalio/client';
import { resolveTemporalCli } from '../../../src/embedded/temporal-cli';
import { startDevServer, type DevServer } from '../../../src/embedded/temporal-dev-server';
import { PRODUCTION_NAMESPACE, SANDBOX_NAMESPACE } from '../../support/test-temporal';

const NAMESPACES = [SANDBOX_NAMESPACE, PRODUCTION_NAMESPACE];

let dir: string;
let server: DevServer | undefined;
let holder: net.Server | undefined;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-dev-server-'));
});

afterEach(async () => {
  await server?.stop();
  server = undefined;
  await new Promise((resolve) => (holder?.listening ? holder.close(resolve) : resolve(undefined)));
  holder = undefined;
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A listener on a loopback port the OS picks, standing for whatever takes a port between its check and its bind. */
async function holdAPort(): Promise<number> {
  // It drops whatever connects (the start's readiness probes), so closing it frees the port at once.
  holder = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => holder?.listen(0, '127.0.0.1', resolve));
  return (holder.address() as net.AddressInfo).port;
}

/** Resolves when the file first contains the pattern; no timer, the file's own changes drive it. */
function whenFileSays(file: string, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (fs.existsSync(file) && pattern.test(fs.readFileSync(file, 'utf8'))) {
        watcher.close();
        resolve();
      }
    };
    const watcher = fs.watch(path.dirname(file), check);
    check();
  });
}

describe('starting the embedded Temporal dev server', () => {
  it('picks a free port when none is given, and every namespace answers on it', async () => {
    server = await startDevServer({ cliPath: resolveTemporalCli(), namespaces: NAMESPACES });
    expect(server.address).toBe(`127.0.0.1:${server.port}`);
    const connection = await Connection.connect({ address: server.address });
    try {
      const described = await connection.workflowService.describeNamespace({ namespace: PRODUCTION_NAMESPACE });
      expect(described.namespaceInfo?.name).toBe(PRODUCTION_NAMESPACE);
    } finally {
      await connection.close();
    }
  });

  it("starts while Assay's own OpenTelemetry settings name an exporter the server does not support", async () => {
    const before = process.env.OTEL_TRACES_EXPORTER;
    process.env.OTEL_TRACES_EXPORTER = 'console';
    try {
      server = await startDevServer({ cliPath: resolveTemporalCli(), namespaces: NAMESPACES });
    } finally {
      if (before === undefined) delete process.env.OTEL_TRACES_EXPORTER;
      else process.env.OTEL_TRACES_EXPORTER = before;
    }
    const connection = await Connection.connect({ address: server.address });
    await connection.close();
  });

  it('tries the same port again when it was taken at the first bind and is free by the next', async () => {
    const port = await holdAPort();
    const logFile = path.join(dir, 'retry.log');
    const firstRefusal = whenFileSays(logFile, /address already in use/).then(() => new Promise((resolve) => holder?.close(resolve)));
    server = await startDevServer({ cliPath: resolveTemporalCli(), port, namespaces: NAMESPACES, logFile });
    await firstRefusal;
    expect(server.port).toBe(port);
    expect(fs.readFileSync(logFile, 'utf8')).toMatch(`can't set frontend port ${port}`);
  });

  it('fails with the server’s own words when the port stays taken', async () => {
    const port = await holdAPort();
    const logFile = path.join(dir, 'taken.log');
    await expect(startDevServer({ cliPath: resolveTemporalCli(), port, namespaces: NAMESPACES, logFile })).rejects.toThrow(
      `can't set frontend port ${port}: listen tcp 127.0.0.1:${port}: bind: address already in use`,
    );
  });
});
