// The web viewer in a real browser (chromium via playwright-core) against the real HTTP server:
// list, filters, search, a session page, timeline payloads, grep, evidence, usage, tokens and XSS.

import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPaths } from '../../src/ingest/ingest.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { findTool } from '../../src/tools/registry.js';
import { runTool } from '../../src/tools/tool.js';
import { startHttpServer, type RunningServer } from '../../src/surfaces/http/server.js';
import { chromiumAvailable, launchBrowser, newPage, screenshot } from '../../src/surfaces/web/test-browser.js';
import { XSS, writeWidePayloadSession, writeXssSession } from '../../src/surfaces/web/test-transcripts.js';
import { FIXTURES, tempDir } from '../helpers.js';

// Browser globals inside page.evaluate callbacks: the project compiles without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any, document: any, sessionStorage: any, Node: any;

const RUN = chromiumAvailable();
const SPOTTER = '8463c716-a2ea-4c14-9efa-87158ebd9f20';

describe.skipIf(!RUN)('web viewer in chromium', () => {
  let store: Store;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let xssId: string;
  let wideId: string;

  beforeAll(async () => {
    const dir = tempDir('hs-web-');
    cpSync(join(FIXTURES, 'claude-code'), join(dir, 'claude-code'), { recursive: true });
    cpSync(join(FIXTURES, 'amplifier', 'normal'), join(dir, 'amplifier'), { recursive: true });
    mkdirSync(join(dir, 'xss'));
    xssId = writeXssSession(join(dir, 'xss'));
    wideId = writeWidePayloadSession(join(dir, 'xss'));
    store = await openStore({ db: join(dir, 'h.db') });
    await ingestPaths(store, [join(dir, 'claude-code'), join(dir, 'amplifier'), join(dir, 'xss')]);
    [server, browser] = await Promise.all([startHttpServer({ store, port: 0 }), launchBrowser()]);
    ({ page, problems } = await newPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await store?.close();
  });

  const go = async (hash: string) => {
    await page.goto(`${server.url}/${hash}`);
  };
  const statusText = () => page.locator('.timeline .page-status').textContent();

  it('lists sessions with sub-agents nested and collapsed under their parent', async () => {
    await go('#/sessions');
    await page.waitForSelector('table.sessions tbody tr');
    const parent = page.locator(`tr[data-id="${SPOTTER}"]`);
    await expect(parent.count()).resolves.toBe(1);
    const children = page.locator(`tr[data-parent="${SPOTTER}"]`);
    await expect(children.count()).resolves.toBe(2);
    await expect(children.first().isHidden()).resolves.toBe(true);
    await parent.locator('button.toggle').click();
    await expect(children.first().isVisible()).resolves.toBe(true);
    await expect(children.nth(1).isVisible()).resolves.toBe(true);
    expect(await page.locator('table.sessions tbody tr:not(.child)').count()).toBeGreaterThanOrEqual(10);
    await screenshot(page, 'sessions-list');
  });

  it('filters by format and sorts by a column', async () => {
    await page.selectOption('select[name=format]', 'amplifier');
    await page.waitForFunction(() => window.location.hash.includes('format=amplifier'));
    await page.waitForFunction(() => {
      const cells = [...document.querySelectorAll('table.sessions tbody tr td:nth-child(2)')];
      return cells.length > 0 && cells.every((td) => td.textContent === 'amplifier');
    });
    const formats = await page.locator('table.sessions tbody tr td:nth-child(2)').allTextContents();
    expect(formats.length).toBeGreaterThan(0);
    expect(new Set(formats)).toEqual(new Set(['amplifier']));
    await page.click('a.sort[data-sort=tokens]');
    await page.waitForFunction(() => window.location.hash.includes('sort=tokens'));
    await page.waitForSelector('th[aria-sort=descending]');
    const tokens = await page.locator('table.sessions tbody tr:not(.child) td:nth-child(9)').evaluateAll((tds) => tds.map((td) => Number((td.getAttribute('title') ?? '').replace(/,/g, ''))));
    expect(tokens.length).toBeGreaterThan(2);
    expect([...tokens].sort((a, b) => b - a)).toEqual(tokens);
  });

  it('filters by date and status', async () => {
    await go('#/sessions');
    await page.waitForSelector('table.sessions tbody tr');
    await page.fill('input[name=date]', '2026-02-10');
    await page.press('input[name=date]', 'Enter');
    await page.waitForFunction(() => window.location.hash.includes('date=2026-02-10'));
    // The list re-renders after the hash changes: wait for the filtered rows, not
    // for whatever rows the previous render left (reading between the two saw none).
    await page.waitForFunction(() => {
      const cells = [...document.querySelectorAll('table.sessions tbody tr td:nth-child(5)')];
      return cells.length > 0 && cells.every((td) => (td.textContent ?? '').startsWith('2026-02-10'));
    });
    const started = await page.locator('table.sessions tbody tr td:nth-child(5)').allTextContents();
    expect(started.length).toBe(3);
    for (const s of started) expect(s.startsWith('2026-02-10')).toBe(true);
    await page.selectOption('select[name=status]', 'interrupted');
    await page.waitForFunction(() => window.location.hash.includes('status=interrupted'));
    await page.waitForFunction(() => document.querySelectorAll('table.sessions tbody tr').length === 2);
    expect(new Set(await page.locator('table.sessions tbody tr td:nth-child(4)').allTextContents())).toEqual(new Set(['interrupted']));
  });

  it('searches the transcripts', async () => {
    await go('#/sessions');
    await page.fill('input[name=q]', 'Tmux module');
    await page.click('form.filters button[type=submit]');
    await page.waitForSelector('ol.matches li');
    const text = await page.locator('ol.matches').textContent();
    expect(text).toContain(SPOTTER);
    expect(text).toContain('Let me check the Tmux module');
    await screenshot(page, 'search');
  });

  it('opens a session: about first, diagnostics, cost, the per-turn chart', async () => {
    await go('#/sessions');
    await page.click(`tr[data-id="${SPOTTER}"] a.session-link`);
    await page.waitForSelector('.about-text');
    expect(await page.locator('.about-text').textContent()).toMatch(/^The user started with “Work on bead spotter-fum/);
    // The about section comes before the diagnostics on the page.
    const order = await page.evaluate(() => {
      const about = document.querySelector('section.about')!;
      const diag = document.querySelector('section.diagnostics')!;
      return Boolean(about.compareDocumentPosition(diag) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    expect(order).toBe(true);
    const bash = await page.locator('table.tools tr', { hasText: 'Bash' }).locator('td').allTextContents();
    expect(bash).toEqual(['Bash', '74', '63', '11']);
    await page.waitForFunction(() => /cost: \$\d/.test(document.querySelector('.cost')?.textContent ?? ''));
    await page.waitForSelector('svg.turn-chart g.bar rect');
    expect(await page.locator('svg.turn-chart g.bar').count()).toBe(1);
    // Each turn's cost: a line on the right-hand scale and the figure in the bar's tooltip.
    expect(await page.locator('svg.turn-chart polyline.cost-line').count()).toBe(1);
    expect(await page.locator('svg.turn-chart g.bar title').textContent()).toMatch(/cost \$\d/);
    expect(await page.locator('.subagent-table tbody tr').count()).toBe(2);
    await page.waitForSelector('.timeline-table tbody tr');
    await screenshot(page, 'session');
  });

  it('pages the timeline, shows lanes, and expands a row to fetch its payload', async () => {
    // Hooks start hidden (web-conversation.test.ts); with the hook chip on, every event is shown.
    await page.click('.kind-chip[data-kind=hook]');
    await page.waitForFunction(() => document.querySelector('.timeline .page-status')?.textContent === 'events 1–200 of 1,731');
    expect(await page.locator('.lanes-legend .lane-key').count()).toBe(3);
    const row = page.locator('.timeline-table tr.kind-tool_call').first();
    const summary = await row.locator('.summary-text').textContent();
    await row.locator('button.expand').click();
    const payload = page.locator('.timeline-table tr.detail pre.payload').first();
    await payload.waitFor();
    const json = JSON.parse((await payload.textContent())!);
    expect(json.tool_name).toBe('Bash');
    expect(json.block.type).toBe('tool_use');
    expect(summary).toContain('Bash');
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'timeline-expanded');
    await page.click('.timeline button.next');
    await page.waitForFunction(() => document.querySelector('.timeline .page-status')?.textContent === 'events 201–400 of 1,731');
    expect(await page.locator('.timeline-table tbody tr.ev').count()).toBe(200);
    expect(await page.locator('.timeline-table tbody tr.ev').first().getAttribute('data-index')).toBe('200');
    // A sub-agent's rows sit in their own lane: jump to the first one the tool itself reports.
    const all = await runTool(findTool('reconstruct_session')!, { session_id: SPOTTER, limit: 2000, max_bytes: 10_000_000 }, { store });
    const timeline = (all as unknown as { timeline: { session_id: string }[] }).timeline;
    const index = timeline.findIndex((r) => r.session_id === `${SPOTTER}:a7be2f0`);
    expect(index).toBeGreaterThan(200);
    await page.fill('input.jump', String(index + 1));
    await page.click('.jump-form button');
    const start = Math.floor(index / 200) * 200;
    await page.waitForSelector(`.timeline-table tr.ev[data-index="${index}"]`);
    expect(await statusText()).toMatch(new RegExp(`^events ${(start + 1).toLocaleString('en-US')}–`));
    const sub = page.locator(`.timeline-table tr.ev[data-index="${index}"]`);
    expect(await sub.getAttribute('data-session')).toBe(`${SPOTTER}:a7be2f0`);
    const lane = await sub.locator('.lane.on').getAttribute('class');
    const legend = await page.locator('.lanes-legend .lane-key').allTextContents();
    const k = Number(/lane-(\d)/.exec(lane!)![1]);
    expect(k).toBeGreaterThan(0);
    expect(legend[k]).toContain('Explore');
    expect(await page.locator('.timeline-table tr.ev[data-index="0"]').count()).toBe(0);
  });

  it('follows a timeline row to its raw evidence line', async () => {
    const row = page.locator('.timeline-table tr.ev').first();
    const link = row.locator('a.evidence');
    const label = (await link.textContent())!;
    const [ledger, line] = label.split(':');
    await link.click();
    await page.waitForSelector('.raw-line.target');
    expect(await page.locator('.raw-line.target .ln').textContent()).toBe(line);
    const raw = (await page.locator('.raw-line.target pre.raw').textContent())!;
    expect(JSON.parse(raw).sessionId).toBe(SPOTTER);
    expect(await page.locator('h1').textContent()).toBe(`${ledger} line ${line}`);
  });

  it('greps within the session and links each hit to its evidence', async () => {
    await go(`#/session/${SPOTTER}`);
    await page.waitForSelector('.grep-form select option', { state: 'attached' });
    await page.fill('.grep-form input[name=pattern]', 'list_panes');
    await page.click('.grep-form button[type=submit]');
    await page.waitForSelector('.grep-hits li');
    expect(await page.locator('.grep-results > div > p').first().textContent()).toMatch(/^\d+ matching lines/);
    const first = page.locator('.grep-hits li').first();
    expect(await first.locator('pre.raw').textContent()).toContain('list_panes');
    await first.locator('a.evidence').click();
    await page.waitForSelector('.raw-line.target');
    expect(await page.locator('.raw-line.target pre.raw').textContent()).toContain('list_panes');
    await screenshot(page, 'evidence');
  });

  it('shows usage per day and per project with cost', async () => {
    await go('#/usage');
    await page.waitForSelector('table.usage-day tbody tr');
    expect(await page.locator('table.usage-day tbody tr').count()).toBeGreaterThanOrEqual(5);
    expect(await page.locator('table.usage-project tbody tr').count()).toBeGreaterThanOrEqual(4);
    expect(await page.locator('.totals').textContent()).toMatch(/^\$\d+\.\d+ for [\d,]+ tokens/);
    expect(await page.locator('svg.cost-chart g.bar').count()).toBe(await page.locator('table.usage-day tbody tr').count());
    await screenshot(page, 'usage', true);
  });

  it('caps a payload at 64 KB and fetches more only when asked', async () => {
    await go(`#/session/${wideId}`);
    const row = page.locator('.timeline-table tr.ev.kind-tool_result');
    await row.locator('button.expand').click();
    const detail = page.locator('.timeline-table tr.detail');
    await detail.locator('button.more').waitFor();
    expect(await detail.textContent()).toContain("This event's payload is larger than 64.0 KB.");
    expect(await detail.locator('a').getAttribute('href')).toMatch(/^#\/raw\//);
    await detail.locator('button.more').click();
    await detail.locator('pre.payload').waitFor();
    const payload = JSON.parse((await detail.locator('pre.payload').textContent())!);
    expect(JSON.stringify(payload).length).toBeGreaterThan(150 * 1024);
  });

  it('explains an unknown session in a sentence', async () => {
    await go('#/session/no-such-session-anywhere');
    await page.waitForSelector('.error');
    expect(await page.locator('.error').first().textContent()).toMatch(/no-such-session-anywhere/);
  });

  it('renders every byte of a hostile transcript as text', async () => {
    const assertInert = async (where: string) => {
      const state = await page.evaluate(() => ({
        xss: window.__xss,
        imgs: document.querySelectorAll('img').length,
        scripts: [...document.querySelectorAll('script')].map((s: any) => s.getAttribute('src')),
        injected: document.querySelectorAll('#xss-link, svg[onload], [onerror], [onload], b').length,
        badLinks: [...document.querySelectorAll('a[href]')].map((a: any) => String(a.getAttribute('href'))).filter((h) => !h.startsWith('#/')),
      }));
      expect(state, where).toEqual({ xss: undefined, imgs: 0, scripts: ['app.js'], injected: 0, badLinks: [] });
    };
    await go('#/sessions');
    await page.waitForSelector(`tr[data-id="${xssId}"]`);
    expect(await page.locator(`tr[data-id="${xssId}"] a.session-link`).textContent()).toContain(XSS.img);
    await assertInert('list');
    await page.fill('input[name=q]', 'xsscanary');
    await page.click('form.filters button[type=submit]');
    await page.waitForSelector('ol.matches li');
    expect(await page.locator('ol.matches').textContent()).toContain(XSS.script);
    await assertInert('search');

    await go(`#/session/${xssId}`);
    await page.waitForSelector('.timeline-table tbody tr.ev');
    for (const b of await page.locator('button.expand').all()) await b.click();
    await page.waitForFunction(() => document.querySelectorAll('pre.payload').length >= 5);
    await page.fill('.grep-form input[name=pattern]', 'onerror');
    await page.click('.grep-form button[type=submit]');
    await page.waitForSelector('.grep-hits li');
    await assertInert('session');
    const text = await page.locator('main').innerText();
    expect(text).toContain('<script>window.__xss=1</script>');
    expect(text).toContain(XSS.img);
    expect(text).toContain('[click me](javascript:window.__xss=1)');
    expect(text).toContain('&lt;b&gt;not bold&lt;/b&gt; &amp; co');
    expect(await page.locator('.about-text').textContent()).toContain('<script>window.__xss=1</script>');
    await screenshot(page, 'xss-session', true);

    await page.locator('.grep-hits a.evidence').first().click();
    await page.waitForSelector('.raw-line.target');
    await assertInert('evidence');
    expect(await page.locator('.raw-line.target pre.raw').textContent()).toContain('onerror=\\"window.__xss=1\\"');
    expect(problems).toEqual([]);
  });

  it('refuses to build a link that is not one of its own routes', async () => {
    await go('#/usage');
    // A string, so the test runner does not rewrite the browser's dynamic import().
    const outcome = await page.evaluate(`(async () => {
      const dom = await import('/dom.js');
      return ['javascript:window.__xss=1', 'https://example.com/', '//example.com', ' #/x', 'data:text/html,x'].map((href) => {
        try {
          dom.h('a', { href });
          return 'built';
        } catch (err) {
          return err.message;
        }
      });
    })()`);
    expect(outcome).toEqual(Array(5).fill('Only internal links (#/…) may be built'));
  });

  it('takes the token from #token=, keeps it for the tab and asks for it when missing', async () => {
    const guarded = await startHttpServer({ store, port: 0, token: 's3cret-token' });
    try {
      const fresh = await newPage(browser);
      await fresh.page.goto(`${guarded.url}/#/sessions`);
      await fresh.page.waitForSelector('form.token-form');
      expect(await fresh.page.locator('.error p').textContent()).toMatch(/token/);
      await fresh.page.fill('form.token-form input', 's3cret-token');
      await fresh.page.click('form.token-form button');
      await fresh.page.waitForSelector('table.sessions tbody tr');
      await fresh.page.context().close();

      const linked = await newPage(browser);
      await linked.page.goto(`${guarded.url}/#token=s3cret-token`);
      await linked.page.waitForSelector('table.sessions tbody tr');
      expect(await linked.page.evaluate(() => [window.location.hash, sessionStorage.getItem('hindsight.token')])).toEqual(['', 's3cret-token']);
      await linked.page.goto(`${guarded.url}/#/usage`);
      await linked.page.waitForSelector('table.usage-day tbody tr');
      expect(linked.problems).toEqual([]);
      await linked.page.context().close();

      // A mangled link (a bad percent escape) does not blank the page: it asks for the token.
      const mangled = await newPage(browser);
      await mangled.page.goto(`${guarded.url}/#token=%E0`);
      await mangled.page.waitForSelector('form.token-form');
      expect(mangled.problems).toEqual([]);
      await mangled.page.context().close();
    } finally {
      await guarded.close();
    }
  });
});
