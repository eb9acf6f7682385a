// Evidence lines by address: many lines of the same block (grep's live check asks for a page of
// up to 500) come back exactly, in the order asked, with each block's line index unpacked once;
// and their stored lengths and hashes (the live check's cheaper read) equal the lines' own.

import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { lineHash } from '../../core/line-hash.js';

vi.mock('./line-index.js', async (original) => {
  const real = await original<typeof import('./line-index.js')>();
  return { ...real, unpackLines: vi.fn(real.unpackLines) };
});

/**
 * The store's modules loaded afresh, so they import the counting unpackLines: the fast tier runs
 * test files in one process (isolate: false), where an earlier file may have loaded the real one.
 * (Each test takes all of them from here: classes of two loads do not mix.)
 */
async function freshModules() {
  vi.resetModules();
  return {
    SqliteStore: (await import('./sqlite-store.js')).SqliteStore,
    ingestPaths: (await import('../../ingest/ingest.js')).ingestPaths,
    lineIndex: await import('./line-index.js'),
  };
}

describe('evidence lines by address', () => {
  it('answers every line of a file, asked backwards, as the file reads, unpacking each block once', async () => {
    const { SqliteStore, ingestPaths, lineIndex } = await freshModules();
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

  it('answers lines\' stored lengths and hashes by address, in the order asked, equal to the lines\' own', async () => {
    const { SqliteStore, ingestPaths } = await freshModules();
    const s = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(s, [copyFixture('claude-code')]);
    const files = s.db.prepare('SELECT id, lines FROM files WHERE lines > 0 ORDER BY lines DESC LIMIT 3').all() as { id: number; lines: number }[];
    const asked = files.flatMap((f) => Array.from({ length: f.lines }, (_, k) => ({ fileId: f.id, lineNumber: f.lines - k })));
    asked.splice(2, 0, { fileId: files[0]!.id, lineNumber: files[0]!.lines + 1 }, { fileId: 999_999, lineNumber: 1 }); // no such lines: left out
    const lines = await s.evidenceLines(asked);
    expect(lines.length).toBe(asked.length - 2);
    const hashes = await s.evidenceLineHashes(asked);
    expect(hashes.map((h) => ({ ...h, hash: h.hash.toString('hex') }))).toEqual(
      lines.map((l) => ({ fileId: l.fileId, lineNumber: l.lineNumber, length: l.raw.length, hash: lineHash(l.raw).toString('hex') })),
    );
    await s.close();
  });
});
