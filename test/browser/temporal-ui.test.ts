import { Client, Connection } from '@temporalio/client';
import { quote } from '../../src/common/visibility/visibility-query';
import { taskWorkflowId } from '../../src/contract';
import { AssayHarness } from '../support/assay-harness';
import { eventually } from '../support/eventually';
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
  await untilVisibilityLists(workflowId);
  browser = await openBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await harness?.stop();
});

/** The workflow list the UI asks for is visibility's: wait until visibility itself lists the workflow. */
async function untilVisibilityLists(id: string): Promise<void> {
  const connection = await Connection.connect({ address: harness.temporal.address });
  try {
    const client = new Client({ connection, namespace: SANDBOX_NAMESPACE });
    const listed = async () => {
      for await (const execution of client.workflow.list({ query: `WorkflowId = ${quote(id)}` })) return execution.workflowId;
      return undefined;
    };
    await eventually(listed, (found) => found === id, `visibility to list ${id}`, 30_000, 250);
  } finally {
    await connection.close();
  }
}

describe('the Temporal Web UI of the embedded default', () => {
  it("lists the task's workflow by its id in the sandbox namespace", async () => {
    const { page } = browser;
    await page.goto(`${uiUrl}/namespaces/${SANDBOX_NAMESPACE}/workflows`);
    // Visibility already lists it (beforeAll), so only the page's own loading is waited for: on a
    // machine busy with other suites the UI's bundle and first list request can take several seconds.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const listed = await page.getByText(workflowId, { exact: true }).first().waitFor({ timeout: 15_000 }).then(() => true, () => false);
      if (listed) break;
      if (Date.now() > deadline) {
        const shown = (await page.locator('body').innerText().catch(() => '')).replace(/\s+/g, ' ').slice(0, 400);
        throw new Error(`${workflowId} never appeared in the Temporal UI's workflow list; the page showed: ${shown}`);
      }
      await page.reload();
    }
  }, 120_000);

  it("opens the workflow's page, which shows it completed as an aiTaskWorkflow", async () => {
    const { page } = browser;
    await page.getByText(workflowId, { exact: true }).first().click();
    await page.waitForURL(/\/workflows\/ai-task/, { timeout: 30_000 });
    await page.getByText('aiTaskWorkflow').first().waitFor({ timeout: 30_000 });
    await page.getByText(/Completed/).first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: SCREENSHOT });
  });
});
