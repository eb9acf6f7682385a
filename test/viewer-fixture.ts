// The viewer over a copy of one fixture folder: a store, the real HTTP server on an ephemeral port
// and a chromium page, for the browser tests that need nothing else.

import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ingestPaths } from '../src/ingest/ingest.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { startHttpServer, type RunningServer } from '../src/surfaces/http/server.js';
import { launchBrowser, newPage } from '../src/surfaces/web/test-browser.js';
import { FIXTURES, tempDir } from './helpers.js';

export interface FixtureViewer {
  store: Store;
  server: RunningServer;
  browser: Browser;
  page: Page;
  /** Console errors and failed requests the page reported. */
  problems: string[];
  close(): Promise<void>;
}

/** Ingest a copy of `../shared/fixtures/<folder>` and open the viewer on it. */
export async function openFixtureViewer(folder: string, prefix: string): Promise<FixtureViewer> {
  const dir = tempDir(prefix);
  cpSync(join(FIXTURES, folder), join(dir, folder), { recursive: true });
  const store = await openStore({ db: join(dir, 'h.db') });
  await ingestPaths(store, [join(dir, folder)]);
  const [server, browser] = await Promise.all([startHttpServer({ store, port: 0 }), launchBrowser()]);
  const { page, problems } = await newPage(browser);
  return {
    store, server, browser, page, problems,
    async close() {
      await browser.close();
      await server.close();
      await store.close();
    },
  };
}
