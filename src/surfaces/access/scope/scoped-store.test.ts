// scopedStore pages in the engine: each page and total of a scoped list equals the whole store's
// list filtered by the scope's rules in memory (store/conformance/scope-reference.ts).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailable } from '../../../store/conformance/engines.js';
import { scopeReference } from '../../../store/conformance/scope-reference.js';
import { PROJECT_A, PROJECT_B, teamFixture, type TeamFixture } from '../test-team.js';
import { scopedStore } from './scoped-store.js';

const unavailable = await postgresUnavailable();
const kinds = ['sqlite' as const, ...(unavailable === null ? ['postgres' as const] : [])];
const PAGES = [
  { limit: 1, offset: 0 },
  { limit: 2, offset: 1 },
  { limit: 3, offset: 4 },
  { limit: 500, offset: 0 },
  { limit: 5, offset: 1000 },
];

describe.each(kinds)('scoped pages on %s', (kind) => {
  let f: TeamFixture;
  beforeAll(async () => {
    f = await teamFixture(kind);
  }, 120_000);
  afterAll(async () => {
    await f.store.close();
    await f.engine.dispose();
  });

  it('lists sessions, files and findings page by page as the filtered whole, with the same totals', async () => {
    for (const projects of [[PROJECT_A], [PROJECT_A, PROJECT_B], [f.planeRoot, PROJECT_B]]) {
      const ref = await scopeReference(f.store, projects, [f.planeRoot]);
      const scoped = scopedStore(f.store, projects);
      expect(ref.sessions.length).toBeGreaterThan(0);
      for (const page of PAGES) {
        const cut = <T>(rows: T[]) => rows.slice(page.offset, page.offset + page.limit);
        const what = `${projects.join(',')} ${JSON.stringify(page)}`;
        expect(await scoped.listSessions(page), what).toEqual({ total: ref.sessions.length, sessions: cut(ref.sessions) });
        expect(await scoped.listFiles(page), what).toEqual({ total: ref.files.length, files: cut(ref.files) });
        expect(await scoped.listDefects(page), what).toEqual({ total: ref.defects.length, defects: cut(ref.defects) });
      }
      expect(await scoped.totals(), projects.join(',')).toEqual(ref.totals);
      // A scope asked for within the scope keeps only the scope's own projects.
      expect((await scoped.listSessions({ limit: 500, offset: 0, projects: [PROJECT_A, 'other'] })).sessions).toEqual(
        ref.sessions.filter((s) => s.project === PROJECT_A),
      );
    }
  });
});
