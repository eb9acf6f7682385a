// listSessions' order and pages on both engines, sessions without a start time included: the page
// is chosen in two halves (started, newest first; then unstarted, by id: sql-store.ts), so every
// window of the listing must be the same slice of the whole, and both engines must agree.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import type { SessionQuery, Store } from '../store.js';
import { postgresEngine, postgresUnavailable, sqliteEngine, type Engine } from './engines.js';

const SLUG = '-home-USER-projects-spotter-worktrees-spotter-fum';
const ID = '8463c716-a2ea-4c14-9efa-87158ebd9f20';

/** The Claude Code fixtures, plus two copies of one session whose lines carry no time at all. */
function corpus(): string {
  const dir = tempDir('hs-order-');
  const lines = readFileSync(join(FIXTURES, 'claude-code', 'projects', SLUG, `${ID}.jsonl`), 'utf8').split('\n').filter(Boolean);
  const timeless = lines.map((l) => {
    const { timestamp: _, ...rest } = JSON.parse(l) as Record<string, unknown>;
    return JSON.stringify(rest);
  });
  const folder = join(dir, 'projects', '-home-ana-timeless');
  mkdirSync(folder, { recursive: true });
  for (const id of ['00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-00000000000a']) {
    writeFileSync(join(folder, `${id}.jsonl`), timeless.map((l) => l.replaceAll(ID, id)).join('\n') + '\n');
  }
  return dir;
}

const unavailable = await postgresUnavailable();
const engines: Engine[] = [sqliteEngine(), ...(unavailable === null ? [postgresEngine()] : [])];

describe('listSessions pages, started and unstarted sessions', () => {
  const dir = corpus();
  const stores: Store[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
    for (const e of engines) await e.dispose();
  });

  it('gives every window as the same slice of the whole listing, on both engines alike', async () => {
    const listings: unknown[] = [];
    for (const engine of engines) {
      const store = await engine.create();
      stores.push(store);
      await ingestPaths(store, [join(FIXTURES, 'claude-code'), dir]);
      for (const filter of [{}, { topLevelOnly: true }, { project: '-home-ana-timeless' }] as Partial<SessionQuery>[]) {
        const whole = await store.listSessions({ ...filter, limit: 1000, offset: 0 });
        const ids = whole.sessions.map((s) => s.id);
        if (filter.project === undefined) {
          // The unstarted come last, by id; the others newest first.
          const unstarted = whole.sessions.filter((s) => s.startedAt === null).map((s) => s.id);
          expect(unstarted).toEqual(['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b']);
          expect(ids.slice(-2)).toEqual(unstarted);
        }
        for (const limit of [1, 2, 3, 7]) {
          for (let offset = 0; offset <= ids.length + 1; offset++) {
            const page = await store.listSessions({ ...filter, limit, offset });
            expect(page.total).toBe(ids.length);
            expect(page.sessions.map((s) => s.id)).toEqual(ids.slice(offset, offset + limit));
          }
        }
        listings.push({ filter, whole });
      }
    }
    if (engines.length === 2) expect(listings.slice(3)).toEqual(listings.slice(0, 3));
  });
});
