import { taskWorkflowId } from '../../src/contract';
import { AssayHarness } from '../support/assay-harness';
import { bearer, http } from '../support/http';
import { SUMMARIZE_TASK } from '../support/tasks';
import { SANDBOX_NAMESPACE } from '../support/test-temporal';
import { openBrowser, type Browser } from './chromium';

const SCREENSHOT = '/tmp/assay-temporal-ui.png';

let harness: AssayHarness;
let uiUrl: string;
let browser: Browser;
let workflowId: string;

beforeAll(async () => {
  // The embedded default as `npm start` runs it: the dev server with its Web UI, here on free ports.
  harness = await AssayHarness.start({ temporalUi: true });
  uiUrl = `http://127.0.0.1:${harness.temporal.uiPort}`;
  const { key } = await harness.issueKey('acme', 'test');

  const created = await http(`${harness.baseUrl}/v1/ai/tasks`, {
    method: 'POST',
    headers: { ...bearer(key), prefer: 'wait=30' },
    json: SUMMARIZE_TASK,
  });
  expect(created.body).toMatchObject({ status: 'succeeded' });
  workflowId = taskWorkflowId('acme', created.body.id);
  browser = await openBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await harness?.stop();
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
