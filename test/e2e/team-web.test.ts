// The web viewer in chromium with a team token from #token=: it lists and opens the token's
// project only, another project's session page says not found, and a revoked token is asked again.

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../src/surfaces/http/server.js';
import { tokenStoreFor } from '../../src/surfaces/access/tokens/open-tokens.js';
import { A_SESSION, B_SESSION, PROJECT_A, teamFixture, type TeamFixture } from '../../src/surfaces/access/test-team.js';
import { chromiumAvailable, launchBrowser, newPage, screenshot } from '../../src/surfaces/web/test-browser.js';

// Browser globals inside page.evaluate callbacks: the project compiles without the DOM library.
declare const sessionStorage: any;

const RUN = chromiumAvailable();

describe.skipIf(!RUN)('the viewer with a team token', () => {
  let f: TeamFixture;
  let server: RunningServer;
  let browser: Browser;
  let token: string;
  let tokenId: string;

  beforeAll(async () => {
    f = await teamFixture('sqlite');
    const tokens = tokenStoreFor(f.store);
    ({ token, record: { id: tokenId } } = await tokens.create({ user: 'ana', projects: [PROJECT_A], readOnly: true }));
    [server, browser] = await Promise.all([startHttpServer({ store: f.store, port: 0, tokens }), launchBrowser()]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await f?.store.close();
  });

  it('shows the token project only, opens its session, and not another project', async () => {
    const { page, problems } = await newPage(browser);
    await page.goto(`${server.url}/#token=${token}`);
    await page.waitForSelector('table.sessions tbody tr');
    expect(await page.evaluate(() => sessionStorage.getItem('hindsight.token'))).toBe(token);
    const ids = await page.locator('table.sessions tbody tr[data-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    expect(ids.sort()).toEqual([...f.sessionsByProject.get(PROJECT_A)!].sort());
    await screenshot(page, 'team-sessions-list');
    await page.goto(`${server.url}/#/session/${A_SESSION}`);
    await page.waitForSelector('.timeline');
    expect(await page.textContent('body')).toContain('spotter-fum');
    await page.goto(`${server.url}/#/session/${B_SESSION}`);
    await page.waitForSelector('.error');
    expect(await page.locator('.error').first().textContent()).toMatch(/No session/);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('asks for a token again once this one is revoked', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.url}/#token=${token}`);
    await page.waitForSelector('table.sessions tbody tr');
    await tokenStoreFor(f.store).revoke(tokenId);
    await page.goto(`${server.url}/#/usage`);
    await page.waitForSelector('form.token-form');
    await page.context().close();
  });
});
