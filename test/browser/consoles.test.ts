import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { AssayHarness } from '../support/assay-harness';
import { eventually } from '../support/eventually';
import { largestAcceptedArchitecture, SINGLE_ZONE_GRAPH } from '../support/graphs';
import { bearer, http } from '../support/http';
import { WebhookReceiver } from '../support/webhook-receiver';
import { openBrowser, type Browser } from './chromium';

/**
 * Screenshots of the console as a reviewer and a customer see it (1280×800, and a phone): in a
 * temporary folder, or with ASSAY_UPDATE_SCREENSHOTS=1 in docs/images, where the README shows them.
 */
const IMAGES = process.env.ASSAY_UPDATE_SCREENSHOTS === '1' ? path.resolve(__dirname, '../../docs/images') : fs.mkdtempSync(path.join(os.tmpdir(), 'assay-console-'));
/** Too dense to be a small PNG: always left in the temporary folder. */
const LARGEST_GRAPH_SCREENSHOT = path.join(os.tmpdir(), 'assay-console-largest-graph.png');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let harness: AssayHarness;
let browser: Browser;
let customerKey: string;
let reviewerCredential: string;
let receiver: WebhookReceiver;

beforeAll(async () => {
  // A claim SLA of seconds, so the queue shows overdue assessments while the test watches.
  harness = await AssayHarness.start({ env: { ASSESSMENT_CLAIM_SLA: '4s', WEBHOOK_RETRY_INITIAL_INTERVAL: '200ms', WEBHOOK_RETRY_MAX_INTERVAL: '1s' } });
  customerKey = (await harness.issueKey('acme', 'test')).key;
  reviewerCredential = (await harness.addReviewer('alice')).credential;
  receiver = new WebhookReceiver();
  await receiver.listen();
  browser = await openBrowser();
});

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await harness?.stop();
});

/** An assessment whose checks ran, as a customer submitted it. */
async function checkedAssessment(body: unknown): Promise<string> {
  const created = await http(`${harness.baseUrl}/v1/network-assessments`, { method: 'POST', headers: bearer(customerKey), json: body });
  expect(created.status).toBe(202);
  const id: string = created.body.assessment_id;
  await eventually(() => http(`${harness.baseUrl}/v1/network-assessments/${id}`, { headers: bearer(customerKey) }), (response) => Array.isArray(response.body.findings), `the checks of ${id}`);
  return id;
}

/** A summarisation task on the default (built-in extractive) model, once it succeeded. */
async function succeededTask(text: string): Promise<string> {
  const created = await http(`${harness.baseUrl}/v1/ai/tasks`, { method: 'POST', headers: bearer(customerKey), json: { task_type: 'summarize', input: { text } } });
  expect(created.status).toBe(202);
  const id: string = created.body.id;
  await eventually(() => http(`${harness.baseUrl}/v1/ai/tasks/${id}`, { headers: bearer(customerKey) }), (response) => response.body.status === 'succeeded', `task ${id} to succeed`);
  return id;
}

async function summaryOf(taskId: string): Promise<string> {
  return (await http(`${harness.baseUrl}/v1/ai/tasks/${taskId}`, { headers: bearer(customerKey) })).body.output.summary;
}

/** Signs in by keyboard alone: type the credential, press Enter. */
async function signIn(credential: string): Promise<void> {
  const { page } = browser;
  await page.goto(`${harness.baseUrl}/console`);
  await page.getByLabel('API key or reviewer credential').fill(credential);
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

async function signOut(): Promise<void> {
  await browser.page.getByRole('button', { name: 'Sign out' }).click();
  await browser.page.getByLabel('API key or reviewer credential').waitFor();
}

describe('the review console', () => {
  beforeAll(() => signIn(reviewerCredential));
  afterAll(signOut);

  it('lets a reviewer sign in, claim, and complete with changes_requested; GET then shows completed by that reviewer', async () => {
    const id = await checkedAssessment({ name: 'Web shop', context: 'Checkout for the EU shop; peak 2,000 orders a minute.', ...SINGLE_ZONE_GRAPH });
    const { page } = browser;
    expect(await page.locator('.who').innerText()).toBe('Reviewer alice · sandbox');
    await page.goto(`${harness.baseUrl}/console#/review`);
    await page.setViewportSize(DESKTOP);
    await page.getByRole('link', { name: 'Web shop' }).first().waitFor();
    await page.goto(`${harness.baseUrl}/console#/review/${id}`);
    await page.locator('svg[data-state="drawn"]').waitFor();
    // By keyboard: focus and Enter, arrow keys between the verdicts, Space on a finding.
    await page.getByRole('button', { name: 'Claim' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('radio', { name: 'approved' }).focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('radio', { name: 'changes requested' }).isChecked()).toBe(true);
    await page.getByLabel('Notes for the customer').fill('Put the database in a second zone.');
    await page.locator('.finding').first().focus();
    await page.keyboard.press('Space');
    expect(await page.locator('.finding').first().getAttribute('aria-pressed')).toBe('true');
    await page.screenshot({ path: path.join(IMAGES, 'review-console.png') });
    await page.getByRole('button', { name: 'Complete' }).click();
    await page.getByTestId('review').waitFor();
    expect(await page.getByTestId('review').innerText()).toContain('changes_requested by alice');

    const customerView = await http(`${harness.baseUrl}/v1/network-assessments/${id}`, { headers: bearer(customerKey) });
    expect(customerView.body).toMatchObject({ status: 'completed', review: { verdict: 'changes_requested', reviewer: 'alice', notes: 'Put the database in a second zone.' } });
    expect(browser.consoleErrors).toEqual([]);
  });

  it('shows the queue earliest deadline first, marks overdue ones, and follows changes without a reload', async () => {
    const { page } = browser;
    await page.goto(`${harness.baseUrl}/console#/review`);
    const first = await checkedAssessment({ name: 'Waiting longest', context: '', ...SINGLE_ZONE_GRAPH });
    const second = await checkedAssessment({ name: 'Arrives while watching', context: '', ...SINGLE_ZONE_GRAPH });
    const rows = page.locator('tbody tr');
    await rows.filter({ hasText: second }).waitFor({ timeout: 15_000 });
    await rows.filter({ hasText: first }).locator('.overdue-badge').waitFor({ timeout: 15_000 });
    const order = await rows.evaluateAll((elements) => elements.map((row) => row.textContent ?? ''));
    expect(order.findIndex((text) => text.includes(first))).toBeLessThan(order.findIndex((text) => text.includes(second)));
    expect(await rows.filter({ hasText: first }).getAttribute('class')).toBe('overdue');
    await page.screenshot({ path: path.join(IMAGES, 'review-queue.png') });
  });

  it('draws the largest accepted architecture (2,000 components, 10,000 links) and says how long the layout took', async () => {
    const id = await checkedAssessment(largestAcceptedArchitecture());
    const { page } = browser;
    await page.setViewportSize(DESKTOP);
    // A fresh load, so the page's clock starts with this navigation.
    await page.goto('about:blank');
    await page.goto(`${harness.baseUrl}/console#/review/${id}`);
    await page.getByRole('status').filter({ hasText: 'Laying out 2000 components' }).waitFor();
    const drawing = page.locator('svg[data-state="drawn"]');
    await drawing.waitFor({ timeout: 60_000 });
    const layoutMs = Number(await drawing.getAttribute('data-layout-ms'));
    const sinceNavigationMs = Number(await drawing.getAttribute('data-first-drawn-at-ms'));
    expect(await page.locator('figcaption').innerText()).toMatch(/^2000 components in 3 zones, 10000 links; laid out in \d+ ms/);
    process.stdout.write(`console: 2,000 components and 10,000 links: laid out by ELK in ${layoutMs} ms; drawn ${sinceNavigationMs} ms after the page's navigation started\n`);
    await page.screenshot({ path: LARGEST_GRAPH_SCREENSHOT });
    expect(browser.consoleErrors).toEqual([]);
  }, 120_000); // submitting and checking the largest graph takes a while on a busy machine
});

describe('the developer console', () => {
  beforeAll(() => signIn(customerKey));
  afterAll(signOut);

  it('signs a customer in with a key kept only as an HttpOnly, SameSite=Strict session, and refuses changes without the CSRF token', async () => {
    const { page } = browser;
    expect(await page.locator('.who').innerText()).toBe('Organisation acme · sandbox');
    const cookies = await page.context().cookies();
    expect(cookies).toEqual([expect.objectContaining({ name: 'assay_console', httpOnly: true, sameSite: 'Strict' })]);
    expect(cookies[0].value).not.toContain(customerKey);
    const stored = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, url: location.href }));
    expect(stored).not.toContain(customerKey);
    const withoutToken = await page.evaluate(async () => {
      const response = await fetch('/v1/webhook-endpoints', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://127.0.0.1:9/x', events: ['ai_task.completed'] }) });
      return { status: response.status, body: await response.json() };
    });
    expect(withoutToken).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    // The refusal above is logged by Chromium as a failed load; it was the point of this test.
    browser.consoleErrors.length = 0;
  });

  it('registers an endpoint, sends a test event to a receiver that verifies its signature, shows it in the delivery log and redelivers it', async () => {
    const { page } = browser;
    await page.goto(`${harness.baseUrl}/console#/webhooks`);
    await page.getByLabel('Endpoint URL').fill(receiver.url('/console-hooks'));
    await page.getByRole('button', { name: 'Register' }).click();
    const secret = await page.getByTestId('secret').innerText();
    receiver.verifyWith((request) => {
      try {
        new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
        return true;
      } catch {
        return false;
      }
    });

    await page.getByRole('button', { name: 'Send test event' }).click();
    const [delivered] = await receiver.waitFor(1);
    expect(JSON.parse(delivered.body)).toMatchObject({ type: 'webhook.test' });
    const log = page.getByRole('table', { name: 'Delivery log' });
    await log.getByRole('cell', { name: 'succeeded' }).first().waitFor();
    expect(await log.innerText()).toMatch(/webhook\.test[\s\S]*succeeded\s+200/);

    await log.getByRole('button', { name: 'Redeliver' }).first().click();
    const [, redelivered] = await receiver.waitFor(2);
    expect(redelivered.headers['webhook-id']).toBe(delivered.headers['webhook-id']);
    await eventually(() => log.getByRole('cell', { name: 'succeeded' }).count(), (count) => count === 2, 'the redelivery in the log');
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: path.join(IMAGES, 'developer-console.png') });
    expect(browser.consoleErrors).toEqual([]);
  });

  it("shows today's usage per model and each task's model and usage", async () => {
    const texts = [
      'The council approved the transit plan on Tuesday. It adds three bus lines. Critics called the budget too high. The first line opens in spring.',
      'The library reopens on Monday after a year of repairs. Its roof no longer leaks. The reading room has new lamps.',
    ];
    const ids = await Promise.all(texts.map(succeededTask));
    // Usage counts a task on the UTC day it finished: today, since they finished just now.
    const today = new Date().toISOString().slice(0, 10);
    const { page } = browser;
    await page.setViewportSize(DESKTOP);
    await page.goto(`${harness.baseUrl}/console#/usage`);
    const byDay = page.getByRole('table', { name: 'By day' });
    const todayExtractive = byDay.locator('tbody tr').filter({ has: page.locator('td[data-label="Day"]', { hasText: today }) }).filter({ has: page.locator('td[data-label="Model"]', { hasText: /^extractive$/ }) });
    await todayExtractive.waitFor();
    expect(await todayExtractive.locator('td[data-label="Tasks"]').innerText()).toBe(String(ids.length));
    expect(await todayExtractive.locator('td[data-label="Cost"]').innerText()).toBe('—');
    const byModel = page.getByRole('table', { name: 'By model' }).locator('tbody tr').filter({ has: page.locator('td[data-label="Model"]', { hasText: /^extractive$/ }) });
    expect(await byModel.locator('td[data-label="Tasks"]').innerText()).toBe(String(ids.length));

    await page.goto(`${harness.baseUrl}/console#/tasks`);
    const row = page.locator('tbody tr').filter({ hasText: ids[0] });
    await row.waitFor();
    expect(await row.locator('td[data-label="Model"]').innerText()).toBe('extractive');
    expect(await row.locator('td[data-label="Usage"]').innerText()).toBe(`0 provider calls · ${texts[0].length} characters in, ${(await summaryOf(ids[0])).length} out`);
    await row.getByRole('link', { name: 'summarize' }).click();
    const detail = page.locator('dl.detail');
    await detail.getByText('0 provider calls').waitFor();
    expect(await detail.innerText()).toMatch(/model\s+extractive/);
    expect(browser.consoleErrors).toEqual([]);
  });

  it('stays readable at phone width: nothing wider than the screen but the tables that scroll', async () => {
    const { page } = browser;
    await page.setViewportSize(PHONE);
    await page.goto(`${harness.baseUrl}/console#/usage`);
    await page.getByRole('table', { name: 'By day' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.goto(`${harness.baseUrl}/console#/tasks`);
    await page.getByRole('heading', { name: 'Tasks' }).waitFor();
    await page.locator('tbody tr').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: path.join(IMAGES, 'developer-console-phone.png') });
    await page.setViewportSize(DESKTOP);
  });
});
