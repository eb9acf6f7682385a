import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { ingestPaths } from '../src/ingest/ingest.js';
import { openStore } from '../src/store/open.js';
import { FIXTURES, tempDir } from '../test/helpers.js';
import { ingestFloor } from './ingest-floor.js';

describe('ingestFloor', () => {
  it('times the pieces of a store an ingest wrote, over all its blocks and event rows, and leaves the store unchanged', async () => {
    const dir = tempDir();
    const db = join(dir, 'store.db');
    const store = await openStore({ db });
    await ingestPaths(store, [join(FIXTURES, 'claude-code')]);
    await store.close();
    const counts = () => {
      const d = new Database(db, { readonly: true });
      try {
        return d.prepare('SELECT (SELECT count(*) FROM blocks) AS blocks, (SELECT count(*) FROM events) AS events').get() as { blocks: number; events: number };
      } finally {
        d.close();
      }
    };
    const before = counts();
    expect(before.events).toBeGreaterThan(100);

    const floor = await ingestFloor(db, join(dir, 'scratch.db'));

    expect(floor.blocks).toBe(before.blocks);
    expect(floor.rows).toBe(before.events);
    for (const s of [floor.compressSeconds, floor.hashSeconds, floor.rowsSeconds]) expect(s).toBeGreaterThan(0);
    expect(counts()).toEqual(before);
  });
});
