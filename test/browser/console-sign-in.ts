import type { Page } from 'playwright-core';

/** Signs in to the console at `baseUrl` by keyboard alone: type the credential, press Enter. */
export async function signInToConsole(page: Page, baseUrl: string, credential: string): Promise<void> {
  await page.goto(`${baseUrl}/console`);
  await page.getByLabel('API key or reviewer credential').fill(credential);
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}
