import { createHash, X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { recordedToolPath } from '../../src/common/recorded-tool';

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

export interface BrowserOptions {
  /**
   * A PEM certificate file this browser accepts for HTTPS, as if a CA it trusts had issued it (a
   * test's own server certificate): pinned by its public key, in this browser only.
   */
  trustCertificate?: string;
}

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
export async function openBrowser(options: BrowserOptions = {}): Promise<Browser> {
  const executablePath = recordedToolPath('chromium-path');
  if (!executablePath) {
    throw new Error('No Chromium: .tools/chromium-path names none that exists. `npm test` provides one: its pretest, `node scripts/ensure-setup.js --for-tests`, finds or installs it and records it there.');
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-chromium-'));
  let context: BrowserContext;
  try {
    const args = options.trustCertificate ? [...CHROMIUM_ARGS, `--ignore-certificate-errors-spki-list=${publicKeyPin(options.trustCertificate)}`] : CHROMIUM_ARGS;
    context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args, viewport: { width: 1280, height: 900 } });
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

/** The base64 SHA-256 of a certificate's SubjectPublicKeyInfo, as Chromium's SPKI list takes it. */
function publicKeyPin(certificateFile: string): string {
  const spki = new X509Certificate(fs.readFileSync(certificateFile)).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}
