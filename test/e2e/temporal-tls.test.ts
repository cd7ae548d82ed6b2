import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { NativeConnection } from '@temporalio/worker';
import { createApiApp } from '../../src/api/create-api-app';
import { AppConfig } from '../../src/common/config/app-config';
import { generateEncryptionKeyEntry } from '../../src/common/crypto/encryption-keys';
import { AssayHarness } from '../support/assay-harness';
import { BuiltService } from '../support/built-service';
import { bearer, http } from '../support/http';
import { makeTestCertificates, type TestCertificates } from '../support/test-certificates';
import { PRODUCTION_NAMESPACE, SANDBOX_NAMESPACE, startTestTemporal } from '../support/test-temporal';
import { startTlsProxy, type TlsProxy } from '../support/tls-proxy';

const TASK = { task_type: 'summarize', input: { text: 'The council approved the plan. It opens in spring. Funding is secured.' } };

let pki: TestCertificates;
let proxy: TlsProxy;
let harness: AssayHarness;
let key: string;

/** What an operator sets to reach a cluster that requires mTLS; the server certificate is for localhost. */
function tlsEnv(client = pki.client): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: proxy.address,
    TEMPORAL_NAMESPACE_SANDBOX: SANDBOX_NAMESPACE,
    TEMPORAL_NAMESPACE_PRODUCTION: PRODUCTION_NAMESPACE,
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.ca.cert,
    TEMPORAL_TLS_SERVER_NAME: 'localhost',
    TEMPORAL_TLS_CLIENT_CERT_PATH: client.cert,
    TEMPORAL_TLS_CLIENT_KEY_PATH: client.key,
  };
}

/** Polls a task until it has finished, or 30 s have passed. */
async function finalStatus(baseUrl: string, id: string, apiKey: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { status } = (await http(`${baseUrl}/v1/ai/tasks/${id}`, { headers: bearer(apiKey) })).body;
    if (status === 'succeeded' || status === 'failed' || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  pki = await makeTestCertificates();
  const temporal = await startTestTemporal();
  proxy = await startTlsProxy({ target: temporal.address, server: pki.server, clientCa: pki.ca.cert });
  // The API and the worker reach Temporal only through the proxy: the dev server's own address is overridden.
  harness = await AssayHarness.start({ temporal, env: tlsEnv() });
  key = (await harness.issueKey('acme', 'test')).key;
});

afterAll(async () => {
  await harness?.stop();
  await proxy?.close();
  pki?.remove();
});

describe('Temporal behind TLS with client certificates', () => {
  it('the API is ready, and a task created through it runs on a worker, all over mTLS', async () => {
    expect(await http(`${harness.baseUrl}/readyz`)).toMatchObject({ status: 200, body: { checks: { temporal: 'ok' } } });
    const created = await http(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(key), json: TASK });
    expect(created.status).toBe(202);
    expect(await finalStatus(harness.baseUrl, created.body.id, key)).toBe('succeeded');
    expect(proxy.accepted).toBeGreaterThanOrEqual(2);
  });

  it('the review operations reach Temporal with the same settings', async () => {
    const { credential } = await harness.addReviewer('alice');
    expect(await http(`${harness.baseUrl}/v1/review/assessments`, { headers: bearer(credential) })).toMatchObject({ status: 200, body: { data: [] } });
  });

  describe('an API without the client certificate', () => {
    let app: NestFastifyApplication;
    let dataDir: string;

    beforeAll(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-no-cert-'));
      const { TEMPORAL_TLS_CLIENT_CERT_PATH: _cert, TEMPORAL_TLS_CLIENT_KEY_PATH: _key, ...withoutClientPair } = tlsEnv();
      app = await createApiApp(new AppConfig({ ...withoutClientPair, DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
      await app.listen({ port: 0, host: '127.0.0.1' });
    });

    afterAll(async () => {
      await app?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('is refused by the server and says so on /readyz', async () => {
      const refusedBefore = proxy.refused;
      const response = await http(`${await app.getUrl()}/readyz`);
      expect(response).toMatchObject({ status: 503, body: { error: { code: 'SERVICE_UNAVAILABLE' } } });
      expect(proxy.refused).toBeGreaterThan(refusedBefore);
    });
  });

  it('the worker process connects over mTLS and says how, without the key', async () => {
    const worker = await BuiltService.start(
      'worker',
      { ...tlsEnv(), TEMPORAL_TASK_QUEUE: harness.config.values.TEMPORAL_TASK_QUEUE, DATA_DIR: harness.dataDir, WORKER_METRICS_PORT: '0', LOG_LEVEL: 'info' },
      /worker ready/,
      2,
    );
    try {
      expect(worker.log).toContain(`"temporal":"${proxy.address} (mTLS)"`);
      expect(worker.log).not.toContain(fs.readFileSync(pki.client.key, 'utf8').split('\n')[1]);
    } finally {
      worker.signal('SIGTERM');
      const exit = await worker.exited;
      expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
    }
  });

  it('a process with broken settings stops at start, one line per problem and no secret', async () => {
    const secret = 'tmprl-api-key-do-not-log-19c2';
    const start = BuiltService.start(
      'worker',
      { ...tlsEnv(), TEMPORAL_API_KEY: secret, TEMPORAL_TLS_CLIENT_CERT_PATH: '/nonexistent/client.crt', TEMPORAL_NAMESPACE: 'default', DATA_DIR: harness.dataDir, WORKER_METRICS_PORT: '0' },
      /worker ready/,
    );
    const failure = await start.then(
      () => 'started',
      (error: Error) => error.message,
    );
    const line = JSON.parse(failure.slice(failure.lastIndexOf('\n{')).trim());
    expect(line).toMatchObject({ level: 'fatal', process: 'worker' });
    expect(line.msg).toMatch(/^Invalid configuration:\n {2}TEMPORAL_NAMESPACE: .*\n {2}TEMPORAL_TLS_CLIENT_CERT_PATH: cannot read \/nonexistent\/client.crt \(ENOENT\)$/);
    expect(failure).not.toContain(secret);
  });

  describe('an API whose sandbox is behind mTLS and whose production is not', () => {
    let app: NestFastifyApplication;
    let dataDir: string;
    let worker: BuiltService;

    beforeAll(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-two-connections-'));
      const profiles = path.join(dataDir, 'temporal.toml');
      fs.writeFileSync(
        profiles,
        [
          '[profile.default]',
          `address = "${harness.temporal.address}"`,
          '[profile.secured]',
          `address = "${proxy.address}"`,
          '[profile.secured.tls]',
          'server_name = "localhost"',
          `server_ca_cert_path = "${pki.ca.cert}"`,
          `client_cert_path = "${pki.client.cert}"`,
          `client_key_path = "${pki.client.key}"`,
        ].join('\n'),
      );
      const env = {
        TEMPORAL_CONFIG_FILE: profiles,
        TEMPORAL_PROFILE_SANDBOX: 'secured',
        TEMPORAL_NAMESPACE_SANDBOX: SANDBOX_NAMESPACE,
        TEMPORAL_NAMESPACE_PRODUCTION: PRODUCTION_NAMESPACE,
        TEMPORAL_TASK_QUEUE: `assay-two-connections-${path.basename(dataDir)}`,
        DATA_DIR: harness.dataDir,
        // It runs tasks in production too, which it neither stores nor serves without keys.
        PAYLOAD_ENCRYPTION_KEYS: generateEncryptionKeyEntry('two-connections'),
      };
      worker = await BuiltService.start('worker', { ...env, WORKER_METRICS_PORT: '0', LOG_LEVEL: 'info' }, /worker ready/, 2);
      app = await createApiApp(new AppConfig({ ...env, LOG_LEVEL: 'silent' }));
      await app.listen({ port: 0, host: '127.0.0.1' });
    });

    afterAll(async () => {
      await app?.close();
      worker?.signal('SIGTERM');
      await worker?.exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('connects each environment its own way and runs tasks in both', async () => {
      expect(worker.log).toContain(`"temporal":"sandbox ${proxy.address} (mTLS), production ${harness.temporal.address} (plaintext)"`);
      const base = await app.getUrl();
      expect(await http(`${base}/readyz`)).toMatchObject({ status: 200 });
      for (const environment of ['test', 'live'] as const) {
        const { key: environmentKey } = await harness.issueKey('acme', environment);
        const created = await http(`${base}/v1/ai/tasks`, { method: 'POST', headers: bearer(environmentKey), json: TASK });
        expect(created.status).toBe(202);
        expect(await finalStatus(base, created.body.id, environmentKey)).toBe('succeeded');
      }
    });
  });

  it('a worker with a certificate from another CA is refused', async () => {
    const refusedBefore = proxy.refused;
    const config = new AppConfig(tlsEnv(pki.stranger));
    await expect(NativeConnection.connect(config.temporalConnections.test)).rejects.toThrow();
    expect(proxy.refused).toBeGreaterThan(refusedBefore);
  });
});
