import { AssayHarness } from '../support/assay-harness';
import { openBrowser, type Browser } from './chromium';
import { CORE_OPERATIONS } from '../support/core-operations';

/** Where the test leaves a full-page screenshot, to look at the page as a person would. */
const SCREENSHOT = '/tmp/assay-docs-page.png';

let harness: AssayHarness;
let browser: Browser;

beforeAll(async () => {
  harness = await AssayHarness.start({ worker: false });
  browser = await openBrowser();
  const response = await browser.page.goto(`${harness.baseUrl}/docs`);
  expect(response?.status()).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await harness?.stop();
});

describe('/docs in a browser', () => {
  it('lists the endpoints of the API in its navigation', async () => {
    const entries = (await browser.page.locator('nav a').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
    expect(entries).toEqual(expect.arrayContaining(CORE_OPERATIONS));
  });

  it('takes the reader to an operation from the navigation, with no script on the page', async () => {
    const { page } = browser;
    // GET and DELETE share the path: the link is told apart by its method, as a reader does.
    await page.locator('nav a', { hasText: /GET\s*\/v1\/network-assessments\/\{assessment_id\}/ }).click();
    expect(new URL(page.url()).hash).toBe('#op-getAssessment');
    await expect(page.locator('#op-getAssessment').isVisible()).resolves.toBe(true);
    expect(await page.locator('#op-getAssessment h3').innerText()).toMatch(/GET\s*\/v1\/network-assessments\/\{assessment_id\}/);
    expect(await page.locator('script').count()).toBe(0);
  });

  it('shows the request fields, an example and the error codes of creating a task', async () => {
    const { page } = browser;
    const operation = page.locator('#op-createTask');
    expect(await operation.locator('table').first().innerText()).toContain('Idempotency-Key');
    expect(await operation.innerText()).toMatch(/input\.max_sentences\s+integer\s+Value 1–20\./);
    await operation.locator('summary', { hasText: 'Example request' }).click();
    expect(await operation.locator('details[open] pre').first().innerText()).toContain('"task_type": "summarize"');
    const errors = await operation.locator('table').last().innerText();
    for (const code of ['INVALID_REQUEST', 'UNSUPPORTED_TASK_TYPE', 'UNAUTHORIZED', 'PAYLOAD_TOO_LARGE', 'IDEMPOTENCY_KEY_REUSED', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE']) {
      expect(errors).toContain(code);
    }
  });

  it('renders under its own Content-Security-Policy without a violation', async () => {
    const { page } = browser;
    // A blocked stylesheet would leave the method badges unstyled (and log a CSP error).
    const badge = await page.locator('nav .method.post').first().evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(badge).toBe('rgb(36, 80, 178)');
    expect(browser.consoleErrors).toEqual([]);
    await page.goto(`${harness.baseUrl}/docs`);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });
});
