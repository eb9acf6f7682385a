// Evidence lines by address: many lines of the same block (grep's live check asks for a page of
// up to 500) come back exactly, in the order asked, with each block's line index unpacked once.

import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from './sqlite-store.js';
import * as lineIndex from './line-index.js';

vi.mock('./line-index.js', async (original) => {
  const real = await original<typeof import('./line-index.js')>();
  return { ...real, unpackLines: vi.fn(real.unpackLines) };
});

describe('evidence lines by address', () => {
  it('answers every line of a file, asked backwards, as the file reads, unpacking each block once', async () => {
    const s = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(s, [copyFixture('claude-code')]);
    const file = s.db.prepare('SELECT id, lines, (SELECT count(*) FROM blocks b WHERE b.file_id = f.id) AS blocks FROM files f ORDER BY lines DESC LIMIT 1').get() as { id: number; lines: number; blocks: number };
    expect(file.lines).toBeGreaterThan(20);
    const inOrder = await s.rawLines([file.id], 1, file.lines);
    expect(inOrder).toHaveLength(file.lines);
    const asked = inOrder.map((l) => ({ fileId: file.id, lineNumber: l.lineNumber })).reverse();
    asked.splice(3, 0, { fileId: file.id, lineNumber: file.lines + 5 }); // past the end: no row
    const unpack = vi.mocked(lineIndex.unpackLines);
    unpack.mockClear();
    const got = await s.evidenceLines(asked);
    expect(got).toEqual([...inOrder].reverse());
    expect(unpack.mock.calls.length).toBe(file.blocks);
    await s.close();
  });
});
