// A timeline page cut on the PostgreSQL server (timeline-page.ts): one statement, the same events in
// the same order as SQLite's client-side sort for every page of every session (Claude Code families,
// Control Plane ledgers whose entries tie on time), and the client-side sort again where paths or
// tiebreaks are not ASCII.

import { cpSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, tempDir } from '../../../test/helpers.js';
import { ingestedOnBoth, type IngestedOnBoth } from '../../../test/ingested-on-both.js';
import { postgresUnavailable } from '../conformance/engines.js';
import type { SqliteStore } from '../sqlite/sqlite-store.js';
import type { PostgresStore } from './postgres-store.js';
import { statementsDuring } from './test-statements.js';

const unavailable = await postgresUnavailable();

describe.skipIf(unavailable !== null)('timeline pages cut on PostgreSQL', () => {
  let both: IngestedOnBoth;
  let server: PostgresStore;
  let lite: SqliteStore;

  beforeAll(async () => {
    both = await ingestedOnBoth([join(FIXTURES, 'claude-code'), join(FIXTURES, 'control-plane', 'normal')], 'hs_tlp');
    ({ postgres: server, sqlite: lite } = both);
  });
  afterAll(async () => {
    await both?.dispose();
  });

  it('answers every page of every session as the client-side sort does, in one statement', async () => {
    const { sessions } = await lite.listSessions({ limit: 500, offset: 0 });
    expect(sessions.some((s) => s.format === 'control-plane')).toBe(true);
    expect(sessions.some((s) => s.childCount > 0)).toBe(true);
    let compared = 0;
    for (const s of sessions) {
      for (const descendants of [false, true]) {
        const { total } = await lite.sessionTimeline(s.id, { offset: 0, limit: 1, descendants });
        for (const [offset, limit] of [[0, 7], [Math.floor(total / 2), 100], [Math.max(0, total - 3), 10], [total + 5, 10]] as const) {
          const page = { offset, limit, descendants };
          const expected = await lite.sessionTimeline(s.id, page);
          let got: unknown;
          const texts = await statementsDuring(server, async () => (got = await server.sessionTimeline(s.id, page)));
          expect(got).toEqual(expected);
          expect(texts).toHaveLength(1);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(40);
    expect(await server.sessionTimeline('no-such-session', { offset: 0, limit: 10, descendants: true })).toEqual({ total: 0, events: [] });
  });

  it('sorts on the client where a path is not ASCII, with the same answer', async () => {
    // A Claude Code session moved under a project folder with a non-ASCII name.
    const dir = tempDir('hs-tlp-cc-');
    cpSync(join(FIXTURES, 'claude-code'), dir, { recursive: true });
    const from = join(dir, 'projects', '-home-USER-projects-spotter-worktrees-spotter-fum');
    mkdirSync(join(dir, 'projects'), { recursive: true });
    renameSync(from, join(dir, 'projects', '-home-zoë-projects-spotter'));
    const zoe = await ingestedOnBoth([dir], 'hs_tlp');
    const { postgres: store, sqlite: local } = zoe;
    try {
      const id = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
      const page = { offset: 3, limit: 20, descendants: true };
      const expected = await local.sessionTimeline(id, page);
      expect(expected.events.some((e) => e.file.includes('zoë'))).toBe(true);
      let got: unknown;
      const texts = await statementsDuring(store, async () => (got = await store.sessionTimeline(id, page)));
      expect(got).toEqual(expected);
      // The server's page, refused, then the keys, the files' names and the page's rows.
      expect(texts).toHaveLength(4);
    } finally {
      await zoe.dispose();
    }
  });
});
