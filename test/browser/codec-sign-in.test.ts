import * as fs from 'node:fs';
import * as path from 'node:path';
import { configSchema } from '../../src/common/config/app-config';
import { taskWorkflowId } from '../../src/contract';
import { DEMO_ORGANIZATION } from '../../src/embedded/demo-key';
import { startEmbeddedStack, stopEmbeddedStack, type EmbeddedStack } from '../support/embedded-stack';
import { bearer, http } from '../support/http';
import { openBrowser, type Browser } from './chromium';
import { CIPHERTEXT_SHOWN, openWorkflowPage, signInAtCodec, workflowPageUrl } from './temporal-ui-codec';

const MARKER = `marker-${Date.now().toString(36)}-in-the-browser`;
/** Where the test leaves the workflow's page as the operator sees it, before and after signing in. */
const SCREENSHOTS = { ciphertext: '/tmp/assay-codec-ciphertext.png', plaintext: '/tmp/assay-codec-plaintext.png' };
const SANDBOX_NAMESPACE = configSchema.parse({}).TEMPORAL_NAMESPACE_SANDBOX;

let stack: EmbeddedStack;
let codecEndpoint: string;
let credential: string;
let workflowPage: string;
let browser: Browser;

beforeAll(async () => {
  // `npm start` as a user runs it (on free ports): the dev server's Web UI with --ui-codec-endpoint, the codec process, the demo key and the credential in the data directory.
  stack = await startEmbeddedStack('assay-codec-browser-');
  // The addresses its banner names.
  codecEndpoint = `http://localhost:${stack.ports.codec}/codec`;
  expect(stack.service.log).toContain(`Codec        ${codecEndpoint}`);
  credential = fs.readFileSync(path.join(stack.dataDir, 'codec-credential'), 'utf8').trim();

  const created = await http(`${stack.baseUrl}/v1/ai/tasks`, {
    method: 'POST',
    headers: { ...bearer(stack.apiKey), prefer: 'wait=30' },
    json: { task_type: 'summarize', input: { text: `${MARKER} is in the text. The council approved the plan.` } },
  });
  expect(created.body).toMatchObject({ status: 'succeeded' });
  const workflowId = taskWorkflowId(DEMO_ORGANIZATION, created.body.id);
  workflowPage = await workflowPageUrl(`http://localhost:${stack.ports.ui}`, { address: stack.temporalAddress }, SANDBOX_NAMESPACE, workflowId);
  browser = await openBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stopEmbeddedStack(stack);
});

describe('the Temporal UI of the embedded default with the codec endpoint', () => {
  it("lets a browser include its credentials in the UI's codec calls, as its Codec Server settings offer", async () => {
    const { page } = browser;
    await page.goto(workflowPage);
    // The glasses button in the top bar (red while the codec refuses: it does, nobody signed in yet).
    await page.locator('[data-testid^="data-encoder-status"]').first().click();
    const dialog = page.locator('#data-encoder-settings');
    await dialog.getByText('Use my browser setting and ignore Cluster-level setting.').click();
    await dialog.locator('#data-encoder-endpoint-input').fill(codecEndpoint);
    await dialog.getByText('Include Cross-Origin Credentials').click();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    const stored = Object.fromEntries(await page.evaluate(() => Object.entries(localStorage)));
    expect(stored).toMatchObject({ endpoint: JSON.stringify(codecEndpoint), includeCredentials: 'true', overrideRemoteCodecConfiguration: 'true' });
  });

  it("shows the task's ciphertext while the browser is not signed in at the codec", async () => {
    const { decodeStatus, shown } = await openWorkflowPage(browser.page, workflowPage, codecEndpoint);
    expect(decodeStatus).toBe(401);
    expect(shown).not.toContain(MARKER);
    expect(shown).toMatch(CIPHERTEXT_SHOWN);
    await browser.page.screenshot({ path: SCREENSHOTS.ciphertext });
  });

  it('signs in at the codec’s page with the credential typed into its form', async () => {
    await signInAtCodec(browser.page, codecEndpoint, credential);
  });

  it("shows the task's text in plaintext once the browser is signed in", async () => {
    const { decodeStatus, shown } = await openWorkflowPage(browser.page, workflowPage, codecEndpoint);
    expect(decodeStatus).toBe(200);
    expect(shown).toContain(MARKER);
    await browser.page.screenshot({ path: SCREENSHOTS.plaintext });
  });

  it('shows the ciphertext again once the browser signed out', async () => {
    const { page } = browser;
    await page.goto(`${codecEndpoint}/`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Operator credential').waitFor({ timeout: 10_000 });
    const { decodeStatus, shown } = await openWorkflowPage(browser.page, workflowPage, codecEndpoint);
    expect(decodeStatus).toBe(401);
    expect(shown).not.toContain(MARKER);
  });
});
