// The viewer on a 100,000-event session in a real browser: the session page renders and the
// timeline pages (first, next, last, jump) and expands rows. Times are printed, never asserted.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPaths } from '../../src/ingest/ingest.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { startHttpServer, type RunningServer } from '../../src/surfaces/http/server.js';
import { chromiumAvailable, launchBrowser, newPage, screenshot } from '../../src/surfaces/web/test-browser.js';
import { writeBigSession } from '../../src/surfaces/web/test-transcripts.js';
import { tempDir } from '../helpers.js';

// Browser globals inside page.evaluate callbacks: the project compiles without the DOM library.
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any

const RUN = chromiumAvailable();
const EVENTS = 100_000;

describe.skipIf(!RUN)('web viewer on a 100,000-event session', () => {
  let store: Store;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let id: string;
  const times: Record<string, number> = {};

  beforeAll(async () => {
    const dir = tempDir('hs-web-large-');
    mkdirSync(join(dir, 'cc'));
    let t = performance.now();
    id = writeBigSession(join(dir, 'cc'), EVENTS);
    times.generate_ms = performance.now() - t;
    store = await openStore({ db: join(dir, 'h.db') });
    t = performance.now();
    await ingestPaths(store, [join(dir, 'cc')]);
    times.ingest_ms = performance.now() - t;
    [server, browser] = await Promise.all([startHttpServer({ store, port: 0 }), launchBrowser()]);
    ({ page, problems } = await newPage(browser));
    await page.addInitScript(() => {
      const g = globalThis as any;
      new g.MutationObserver(() => {
        if (!g.__rowsAt && g.document.querySelector('tr.ev')) g.__rowsAt = g.performance.now();
      }).observe(g.document, { subtree: true, childList: true });
    });
  });

  afterAll(async () => {
    console.log('web-large timings (informational):', JSON.stringify(Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(v)]))));
    await browser?.close();
    await server?.close();
    await store?.close();
  });

  const status = () => page.locator('.timeline .page-status').textContent();
  const waitStatus = (prefix: string) =>
    page.waitForFunction((p: string) => (document.querySelector('.timeline .page-status')?.textContent ?? '').startsWith(p), prefix);

  it('opens the session with its first timeline page and the per-turn chart', async () => {
    const t = performance.now();
    // 'commit': the rows are what a person waits for, not the load event.
    await page.goto(`${server.url}/#/session/${id}`, { waitUntil: 'commit' });
    await page.waitForSelector('.timeline-table tbody tr.ev');
    times.open_ms = performance.now() - t;
    // The server shares this process with the test runner, so the page's own clock says when rows appeared.
    times.rows_visible_in_page_ms = await page.evaluate(() => (globalThis as any).__rowsAt);
    expect(await status()).toBe('events 1–200 of 100,000');
    expect(await page.locator('.timeline-table tbody tr.ev').count()).toBe(200);
    await page.waitForSelector('svg.turn-chart g.bar');
    expect(await page.locator('svg.turn-chart g.bar').count()).toBe(50);
    expect(await page.locator('.about-text').textContent()).toMatch(/^The user started with “Turn 1: check file 1/);
    await screenshot(page, 'large-session');
  });

  it('pages forward, to the end and to any event, one page of rows at a time', async () => {
    let t = performance.now();
    await page.click('.timeline button.next');
    await waitStatus('events 201–400 of 100,000');
    times.next_ms = performance.now() - t;

    t = performance.now();
    await page.click('.timeline button.last');
    await waitStatus('events 99,801–100,000 of 100,000');
    times.last_ms = performance.now() - t;
    expect(await page.locator('.timeline-table tbody tr.ev').count()).toBe(200);
    expect(await page.locator('.timeline-table tbody tr.ev').last().getAttribute('data-index')).toBe('99999');
    expect(await page.locator('.timeline-table tbody tr.ev').last().locator('.summary-text').textContent()).toBe('Assistant text (13 chars)');

    t = performance.now();
    await page.fill('input.jump', '50123');
    await page.click('.jump-form button');
    await waitStatus('events 50,001–50,200 of 100,000');
    times.jump_ms = performance.now() - t;
    expect(await page.locator('.timeline-table tr.ev[data-index="50122"]').count()).toBe(1);
    // Only one page is ever in the DOM.
    expect(await page.locator('.timeline-table tbody tr.ev').count()).toBe(200);
  });

  it('expands a row deep in the session and fetches only its payload', async () => {
    const row = page.locator('.timeline-table tr.ev[data-index="50122"]');
    const t = performance.now();
    await row.locator('button.expand').click();
    const payload = page.locator('.timeline-table tr.detail pre.payload');
    await payload.waitFor();
    times.expand_ms = performance.now() - t;
    const json = JSON.parse((await payload.textContent())!);
    expect(json.uuid).toBeTruthy();
    expect(await page.locator('.timeline-table tr.detail').count()).toBe(1);
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'large-session-page-251');
    expect(problems).toEqual([]);
  });
});
