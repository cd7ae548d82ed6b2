import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { NativeConnection, bundleWorkflowCode, type Worker } from '@temporalio/worker';
import { createApiApp } from '../../src/api/create-api-app';
import { AppConfig } from '../../src/common/config/app-config';
import { resolveTemporalCli } from '../../src/embedded/temporal-cli';
import { startDevServer, type DevServer } from '../../src/embedded/temporal-dev-server';
import { KeyService } from '../../src/common/keys/key-service';
import { Storage } from '../../src/common/storage/storage';
import { taskWorkflowId } from '../../src/contract';
import { bundlerLogger } from '../../src/worker/bundler-logger';
import { createWorkers } from '../../src/worker/create-workers';
import { installWorkerRuntime } from '../../src/worker/install-runtime';
import { bearer, http } from '../support/http';
import { PRODUCTION_NAMESPACE, SANDBOX_NAMESPACE } from '../support/test-temporal';
import { openBrowser, type Browser } from './chromium';

const SCREENSHOT = '/tmp/assay-temporal-ui.png';

let server: DevServer;
let uiUrl: string;
let dataDir: string;
let api: NestFastifyApplication;
let connection: NativeConnection;
let workers: Worker[] = [];
let running: Promise<unknown>;
let browser: Browser;
let workflowId: string;

beforeAll(async () => {
  // The embedded default as `npm start` runs it: the dev server with its Web UI, here on free ports.
  server = await startDevServer({ cliPath: resolveTemporalCli(), uiPort: 'free', namespaces: [SANDBOX_NAMESPACE, PRODUCTION_NAMESPACE] });
  uiUrl = `http://127.0.0.1:${server.uiPort}`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-ui-'));
  const config = new AppConfig({ TEMPORAL_ADDRESS: server.address, DATA_DIR: dataDir, LOG_LEVEL: 'silent', TEMPORAL_TASK_QUEUE: `assay-ui-${path.basename(dataDir)}` });

  const storage = await Storage.open(config);
  const { key } = await new KeyService(storage.keys, config.values.API_KEY_BRAND, { actor: 'temporal-ui-test' }).issue('acme', 'test');
  await storage.close();

  api = await createApiApp(config);
  await api.listen({ port: 0, host: '127.0.0.1' });
  installWorkerRuntime('error');
  connection = await NativeConnection.connect({ address: server.address });
  const workflowBundle = await bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows'), logger: bundlerLogger });
  workers = await createWorkers(config, { test: connection, live: connection }, { workflowBundle });
  running = Promise.all(workers.map((worker) => worker.run()));

  const created = await http(`${await api.getUrl()}/v1/ai/tasks`, {
    method: 'POST',
    headers: { ...bearer(key), prefer: 'wait=30' },
    json: { task_type: 'summarize', input: { text: 'The council approved the plan. It adds three bus lines. The first opens in spring.' } },
  });
  expect(created.body).toMatchObject({ status: 'succeeded' });
  workflowId = taskWorkflowId('acme', created.body.id);
  browser = await openBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  workers.forEach((worker) => worker.shutdown());
  await running;
  await connection?.close();
  await api?.close();
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the Temporal Web UI of the embedded default', () => {
  it("lists the task's workflow by its id in the sandbox namespace", async () => {
    const { page } = browser;
    await page.goto(`${uiUrl}/namespaces/${SANDBOX_NAMESPACE}/workflows`);
    // The list comes from visibility, which may trail the workflow by a moment: reload until it shows.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const listed = await page.getByText(workflowId, { exact: true }).first().waitFor({ timeout: 3_000 }).then(() => true, () => false);
      if (listed) break;
      if (Date.now() > deadline) throw new Error(`${workflowId} never appeared in the Temporal UI's workflow list`);
      await page.reload();
    }
  });

  it("opens the workflow's page, which shows it completed as an aiTaskWorkflow", async () => {
    const { page } = browser;
    await page.getByText(workflowId, { exact: true }).first().click();
    await page.waitForURL(/\/workflows\/ai-task/, { timeout: 30_000 });
    await page.getByText('aiTaskWorkflow').first().waitFor({ timeout: 30_000 });
    await page.getByText(/Completed/).first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: SCREENSHOT });
  });
});
