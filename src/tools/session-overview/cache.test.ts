// The overview cache (version.ts + analysis/version-cache.ts) on a real SQLite store: concurrent
// calls share one computation, an ingest that grows the session gives the fresh store's answer,
// arguments and store views never share answers.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { Store } from '../../store/store.js';
import { runTool } from '../tool.js';
import { sessionOverview } from './index.js';

const ID = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
const SLUG = '-home-USER-projects-spotter-worktrees-spotter-fum';
const SOURCE = join(FIXTURES, 'claude-code', 'projects', SLUG, `${ID}.jsonl`);
const LINES = readFileSync(SOURCE, 'utf8').split('\n').filter(Boolean);

/** A Claude Code config folder holding the first `n` lines of the fixture session. */
function writeConfig(dir: string, n: number): string {
  const folder = join(dir, 'projects', SLUG);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${ID}.jsonl`), LINES.slice(0, n).join('\n') + '\n');
  return dir;
}

async function storeOf(config: string): Promise<SqliteStore> {
  const store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, [config]);
  return store;
}

/** `store` with its timeline reads counted (the overview's one big read). */
function counted(store: Store): { store: Store; timelines: () => number } {
  let n = 0;
  const view = Object.create(store) as Store;
  view.sessionTimeline = (id, options) => {
    n++;
    return store.sessionTimeline(id, options);
  };
  return { store: view, timelines: () => n };
}

const overview = (store: Store, args: Record<string, unknown> = {}) => runTool(sessionOverview, { session_id: ID, ...args }, { store }) as Promise<Record<string, any>>;

describe('session_overview cache', () => {
  it('answers 40 concurrent identical calls with one computation, equal to an uncached answer', async () => {
    const config = writeConfig(tempDir('hs-claude-'), LINES.length);
    const base = await storeOf(config);
    try {
      const uncached = await overview(Object.create(base) as Store);
      const { store, timelines } = counted(base);
      const answers = await Promise.all(Array.from({ length: 40 }, () => overview(store)));
      expect(uncached.status).toBe('ok');
      for (const a of answers) expect(a).toEqual(uncached);
      expect(timelines()).toBe(1);
      // Another max_bytes is cut from the same cached body: no new computation.
      const small = await overview(store, { max_bytes: 2_000 });
      expect(small).toMatchObject({ status: 'ok', truncated: true });
      expect(timelines()).toBe(1);
      // Arguments that change the body are their own entries.
      const raw = await overview(store, { redact: false, top_user_messages: 2 });
      expect(raw.summary.top_user_messages.length).toBeLessThanOrEqual(2);
      expect(timelines()).toBe(2);
    } finally {
      await base.close();
    }
  });

  it('after an ingest that grows the session, answers what a fresh store of the same files answers', async () => {
    const dir = tempDir('hs-claude-');
    const half = Math.floor(LINES.length / 2);
    const store = await storeOf(writeConfig(dir, half));
    const fresh = await storeOf(writeConfig(tempDir('hs-claude-'), LINES.length));
    try {
      const before = await overview(store);
      expect(await overview(store)).toEqual(before); // cached, unchanged
      writeConfig(dir, LINES.length);
      await ingestPaths(store, [dir]);
      const after = await overview(store);
      expect(after.diagnostics.ledger_events).not.toEqual(before.diagnostics.ledger_events);
      expect(after).toEqual(await overview(fresh));
    } finally {
      await store.close();
      await fresh.close();
    }
  });

  it('computes separately for another view of the same store (a team token gets its own object)', async () => {
    const base = await storeOf(writeConfig(tempDir('hs-claude-'), LINES.length));
    try {
      const a = counted(base);
      const b = counted(base);
      await overview(a.store);
      await overview(b.store);
      await overview(a.store);
      expect([a.timelines(), b.timelines()]).toEqual([1, 1]);
    } finally {
      await base.close();
    }
  });
});
