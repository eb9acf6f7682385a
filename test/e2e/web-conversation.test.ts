// The viewer's conversation controls in chromium against the real HTTP server: kind chips on the
// session timeline (hooks off by default, with a count of the hidden rows) and the cost column of
// the session list.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCosts } from '../../src/analysis/session-cost.js';
import type { RunningServer } from '../../src/surfaces/http/server.js';
import { openFixtureViewer, type FixtureViewer } from '../viewer-fixture.js';
import { chromiumAvailable } from '../../src/surfaces/web/test-browser.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;

const RUN = chromiumAvailable();
const SPOTTER = '8463c716-a2ea-4c14-9efa-87158ebd9f20';

describe.skipIf(!RUN)('viewer conversation controls in chromium', () => {
  let viewer: FixtureViewer;
  let server: RunningServer;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    viewer = await openFixtureViewer('claude-code', 'hs-web-conv-');
    ({ server, page, problems } = viewer);
  });

  afterAll(async () => {
    await viewer?.close();
  });

  const kindsShown = () => page.locator('.timeline tbody tr.ev td:nth-child(4)').allTextContents();

  it('hides hook rows by default and says how many; the hook chip brings them back', async () => {
    await page.goto(`${server.url}/#/session/${SPOTTER}`);
    await page.waitForSelector('.timeline tbody tr.ev');
    await expect(page.locator('.kind-chip[data-kind=hook]').getAttribute('aria-pressed')).resolves.toBe('false');
    await expect(page.locator('.kind-chip[data-kind=user]').getAttribute('aria-pressed')).resolves.toBe('true');
    expect(await kindsShown()).not.toContain('hook');
    const hidden = Number(await page.locator('.timeline').getAttribute('data-hidden'));
    expect(hidden).toBeGreaterThan(100);
    await expect(page.locator('.timeline .hidden-count').textContent()).resolves.toBe(`${hidden.toLocaleString('en-US')} hook rows hidden`);

    await page.click('.kind-chip[data-kind=hook]');
    await page.waitForFunction(() => window.location.hash.includes('kinds='));
    await page.waitForSelector('.timeline[data-hidden="0"]');
    expect(await kindsShown()).toContain('hook');
    expect(problems).toEqual([]);
  });

  it('shows only the chosen kinds, and opens a filtered row at its own payload', async () => {
    await page.goto(`${server.url}/#/session/${SPOTTER}?kinds=user`);
    await page.waitForSelector('.timeline tbody tr.ev');
    expect(new Set(await kindsShown())).toEqual(new Set(['user']));
    await expect(page.locator('.kind-chip[data-kind=assistant]').getAttribute('aria-pressed')).resolves.toBe('false');
    await expect(page.locator('.timeline .hidden-count').textContent()).resolves.toMatch(/^[\d,]+ rows of other kinds hidden$/);
    await page.locator('.timeline tbody tr.ev').first().locator('button.expand').click();
    await page.waitForSelector('.timeline tr.detail pre.payload');
    await expect(page.locator('.timeline tr.detail pre.payload').textContent()).resolves.toContain('Work on bead spotter-fum');
    expect(problems).toEqual([]);
  });

  it('charts tokens and cost per LLM call, with latency in each bar, beside the one-bar turn chart', async () => {
    await page.goto(`${server.url}/#/session/${SPOTTER}`);
    await page.waitForSelector('svg.call-chart g.bar', { state: 'attached' });
    // One prompt: one turn bar, but one bar per LLM call of the session's own events.
    expect(await page.locator('svg.turn-chart g.bar').count()).toBe(1);
    const bars = await page.locator('svg.call-chart g.bar').count();
    expect(bars).toBeGreaterThan(100);
    await expect(page.locator('section.calls .note').textContent()).resolves.toMatch(new RegExp(`^${bars} LLM calls of this session's own events`));
    await expect(page.locator('svg.call-chart polyline.cost-line').count()).resolves.toBe(1);
    const title = await page.locator('svg.call-chart g.bar title').first().textContent();
    expect(title).toMatch(/^call 1 · 2026-02-11 \d\d:\d\d:\d\d · claude-opus-4-6\n/);
    expect(title).toMatch(/cost \$\d+\.\d+ · latency \d+\.\d s \(between log lines\)$/);
    expect(problems).toEqual([]);
  });

  it('lists each session with its cost, as usage_report prices it', async () => {
    const costs = (await sessionCosts(viewer.store)).byId;
    const expected = costs.get(SPOTTER)!.cost_usd!;
    await page.goto(`${server.url}/#/sessions`);
    await page.waitForSelector('table.sessions tbody tr');
    await expect(page.locator('a.sort[data-sort=cost]').count()).resolves.toBe(1);
    const cell = page.locator(`tr[data-id="${SPOTTER}"] td.cost`);
    await expect(cell.textContent()).resolves.toBe(`$${expected.toFixed(2)}`);
    // Never $0 for a session: every fixture session has priced calls.
    for (const text of await page.locator('table.sessions td.cost').allTextContents()) expect(text).not.toMatch(/^\$0(\.0+)?$/);
    expect(problems).toEqual([]);
  });
});
