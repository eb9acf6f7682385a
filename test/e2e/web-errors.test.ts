// The viewer's session page shows what failed (issue 14, item 1), in chromium against the real
// HTTP server: the Errors panel lists each failed tool call with its tool, its text and a link to
// its raw line, where it used to say "Errors: 0 / None." beside 13 failed calls.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/surfaces/http/server.js';
import { openFixtureViewer, type FixtureViewer } from '../viewer-fixture.js';
import { chromiumAvailable, screenshot } from '../../src/surfaces/web/test-browser.js';

const RUN = chromiumAvailable();
const SPOTTER = '8463c716-a2ea-4c14-9efa-87158ebd9f20';

describe.skipIf(!RUN)('the session page lists failures', () => {
  let viewer: FixtureViewer;
  let server: RunningServer;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    viewer = await openFixtureViewer('claude-code', 'hs-web-errors-');
    ({ server, page, problems } = viewer);
  });

  afterAll(async () => {
    await viewer?.close();
  });

  it('shows the 13 failed calls beside the tool counts, each with its tool, text and evidence link', async () => {
    await page.goto(`${server.url}/#/session/${SPOTTER}`);
    await page.waitForSelector('.findings.errors li.finding-error', { state: 'attached' });
    expect(await page.locator('.findings.errors h3').textContent()).toBe('Errors: 13');
    const items = page.locator('.findings.errors li.finding-error');
    expect(await items.count()).toBe(13);
    const first = items.first();
    expect(await first.locator('.ftype').textContent()).toBe('tool_error');
    expect(await first.locator('.ftool').textContent()).toBe('Read');
    expect(await first.locator('.fmsg').textContent()).toMatch(/^File content \(85812 tokens\) exceeds maximum allowed tokens/);
    // A failed test run keeps the end of its output, where the failure is told.
    expect(await page.locator('.findings.errors .fmsg', { hasText: '58 tests, 1 failure' }).count()).toBeGreaterThan(0);
    // More than five start folded so the diagnostics stay one screen; the summary opens them.
    await expect(first.isVisible()).resolves.toBe(false);
    await page.click('.findings.errors summary');
    await expect(first.isVisible()).resolves.toBe(true);
    await first.scrollIntoViewIfNeeded();
    await screenshot(page, 'session-errors');
    await first.locator('a.evidence').click();
    await page.waitForSelector('.raw-line.target');
    expect(await page.locator('.raw-line.target .ln').textContent()).toBe('69');
    expect(await page.locator('.raw-line.target pre.raw').textContent()).toContain('toolu_01QKgHsyMTCzfusHirKBAZNC');
    expect(problems).toEqual([]);
  });
});
