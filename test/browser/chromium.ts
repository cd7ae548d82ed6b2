import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; .ci/run installs the `chromium` package. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

// Headless, as root, on a machine with no network but loopback: no sandbox, no GPU, and none of
// the background traffic (updates, sync, QUIC probes) that would only fail and slow it down.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  page: Page;
  /** Messages the page logged as errors, CSP violations included. */
  consoleErrors: string[];
  close(): Promise<void>;
}

/**
 * Chromium with a fresh, empty profile and one page. Missing Chromium is a failure, never a skip:
 * these tests are how the docs page and the Temporal UI are checked as a person sees them.
 */
export async function openBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}. Install the Debian package "chromium" (apt-get install -y chromium); .ci/run does this.`);
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 900 } });
  } catch (error) {
    fs.rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  return {
    page,
    consoleErrors,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
