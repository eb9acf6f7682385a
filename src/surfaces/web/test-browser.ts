// Launches Debian's chromium for the viewer's browser tests and keeps their screenshots in one place.
// Missing chromium fails loudly in CI and is a printed skip elsewhere (the tests need a real browser).

import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.HINDSIGHT_CHROMIUM ?? '/usr/bin/chromium';
const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const SCREENSHOTS = join(REPO, 'test-output', 'screenshots');

/** Whether the browser tests can run; in CI a missing browser is an error, never a skip. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  const reason = `${CHROMIUM} is missing: install it with \`apt-get install -y chromium\` (or set HINDSIGHT_CHROMIUM) to run the web viewer's browser tests.`;
  if (process.env.CI) throw new Error(reason);
  console.warn(`Skipping the browser tests: ${reason}`);
  return false;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/** A page that records uncaught errors and console errors, so a test can assert there were none. */
export async function newPage(browser: Browser): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // A 4xx answer the page shows as a sentence is expected; anything else logged as an error is not.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`);
  });
  return { page, problems };
}

/** A screenshot of what is on screen (full pages of 200-row timelines would be megabytes each). */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}
