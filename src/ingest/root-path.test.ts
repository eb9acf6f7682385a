// A root given through a symlink (or with `..`, or a trailing slash) names the root ingest stored
// under its real path.

import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../test/helpers.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { findTool } from '../tools/registry.js';
import { runTool } from '../tools/tool.js';
import { ingestPaths } from './ingest.js';
import { realRootPath, sameRootPath } from './root-path.js';

describe('roots compared by real path', () => {
  it('finds an ingested plane root named through a symlink', async () => {
    const root = copyFixture('control-plane/normal');
    const link = join(tempDir('hs-link-'), 'plane');
    symlinkSync(root, link);
    const store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(store, [root]);
    for (const given of [link, `${link}/`, join(link, '..', 'plane')]) {
      const res = (await runTool(findTool('query_ledger')!, { root: given, ledger: 'governance', limit: 1 }, { store })) as unknown as {
        status: string;
        root: string;
        count: number;
      };
      expect(res.status).toBe('ok');
      expect(res.root).toBe(realRootPath(root));
      expect(res.count).toBeGreaterThan(0);
    }
    await store.close();
  });

  it('tells roots apart', () => {
    const a = tempDir('hs-a-');
    const b = tempDir('hs-b-');
    const link = join(tempDir('hs-link-'), 'a');
    symlinkSync(a, link);
    expect(sameRootPath(link, realRootPath(a))).toBe(true);
    expect(sameRootPath(link, realRootPath(b))).toBe(false);
    expect(sameRootPath('/no/such/root', '/no/such/root/')).toBe(true);
  });
});
