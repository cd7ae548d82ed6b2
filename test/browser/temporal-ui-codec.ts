import { Connection, type ConnectionOptions } from '@temporalio/client';
import type { Page } from 'playwright-core';

/** The Temporal UI's page of a workflow's latest run (its history tab, with the Input and Result section). */
export async function workflowPageUrl(uiUrl: string, temporal: ConnectionOptions, namespace: string, workflowId: string): Promise<string> {
  const connection = await Connection.connect(temporal);
  try {
    const { workflowExecutionInfo } = await connection.workflowService.describeWorkflowExecution({ namespace, execution: { workflowId } });
    const runId = workflowExecutionInfo?.execution?.runId;
    return `${uiUrl}/namespaces/${namespace}/workflows/${encodeURIComponent(workflowId)}/${runId}/history`;
  } finally {
    await connection.close();
  }
}

// How long the UI may take to render what its codec call answered, once the answer has arrived.
const RENDER_DECODED_MS = 10_000;

/**
 * Opens a workflow's page and waits for the UI's codec call (it decodes the input and result
 * together); returns that call's status and what the Input and Result section shows. After a
 * successful call the section is read until the UI has rendered the decoded text: the answer
 * arrives a moment before the page shows it (one CI run read the section in between).
 */
export async function openWorkflowPage(page: Page, url: string, codecEndpoint: string): Promise<{ decodeStatus: number; shown: string }> {
  const decoded = page.waitForResponse((response) => response.url().startsWith(`${codecEndpoint}/decode`) && response.request().method() === 'POST', { timeout: 30_000 });
  await page.goto(url);
  const decodeStatus = (await decoded).status();
  const section = page.getByTestId('input-and-result');
  await section.getByText('Input').first().waitFor({ timeout: 30_000 });
  let shown = await section.innerText();
  const deadline = Date.now() + RENDER_DECODED_MS;
  while (decodeStatus === 200 && CIPHERTEXT_SHOWN.test(shown) && Date.now() < deadline) {
    await page.waitForTimeout(100);
    shown = await section.innerText();
  }
  return { decodeStatus, shown };
}

/** Signs the browser in at the codec's page as an operator does: types the credential and presses Sign in. */
export async function signInAtCodec(page: Page, codecEndpoint: string, credential: string): Promise<void> {
  await page.goto(`${codecEndpoint}/`);
  await page.getByLabel('Operator credential').pressSequentially(credential);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(/signed in until/).waitFor({ timeout: 10_000 });
}

/** The payload's data as the UI shows it undecoded: base64 of AES-GCM output, a long run with no spaces. */
export const CIPHERTEXT_SHOWN = /"[A-Za-z0-9+/=]{100,}"/;
