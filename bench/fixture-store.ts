// A store holding the real transcripts and a Control Plane root from ../shared/fixtures: what the
// surface benches load when no store is given, and what `npm run bench` serves over HTTP and MCP.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ingestPaths } from '../src/ingest/ingest.js';
import { openStore } from '../src/store/open.js';

const FIXTURES = resolve(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures');

/** The real Claude Code session with two sub-agent files (3.1 MB): the one the surface benches load. */
export const FIXTURE_SESSION = '8463c716-a2ea-4c14-9efa-87158ebd9f20';

/** Ingest the fixtures into `db` (default: a new temp file) and return its path. */
export async function fixtureStore(db = join(mkdtempSync(join(tmpdir(), 'hs-bench-')), 'h.db')): Promise<string> {
  const store = await openStore({ db });
  try {
    await ingestPaths(store, [join(FIXTURES, 'claude-code'), join(FIXTURES, 'control-plane', 'normal')]);
  } finally {
    await store.close();
  }
  return db;
}
