// Test helper: a temp SQLite store holding copies of real Claude Code and Control Plane fixtures.

import { join } from 'node:path';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { openStore } from '../../store/open.js';
import type { Store } from '../../store/store.js';

/** The Claude Code session of the fixtures that has sub-agent files. */
export const CC_SESSION = '8463c716-a2ea-4c14-9efa-87158ebd9f20';

export async function fixtureStore(): Promise<{ store: Store; db: string; root: string }> {
  const cc = copyFixture('claude-code');
  const plane = copyFixture('control-plane/normal');
  const db = join(tempDir('hs-mcp-'), 'h.db');
  const store = await openStore({ db });
  await ingestPaths(store, [cc, plane]);
  return { store, db, root: cc };
}
