// A store with real fixtures ingested (Claude Code and a Control Plane root) and a workspace
// folder, shared by the HTTP surface's tests; the example store every tool's examples run on
// (src/tools/example-store.ts, src/surfaces/tool-examples.test.ts).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';

export const CC_SESSION = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
export const CC_INTERRUPTED = 'd6e0bada-1959-4eec-a9d2-0bfade768d8f';
export const CP_SESSION = 'SES-5078F5F8';

export interface TestStore {
  store: SqliteStore;
  db: string;
  workspace: string;
}

/** A fresh store in a temp folder with claude-code and control-plane/normal ingested. */
export async function fixtureStore(): Promise<TestStore> {
  const dir = tempDir('hs-http-');
  const db = join(dir, 'h.db');
  const store = new SqliteStore(db);
  await ingestPaths(store, [copyFixture('claude-code'), copyFixture('control-plane/normal')]);
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'notes.txt'), 'hello\n');
  return { store, db, workspace };
}
