// A file parsed chunk by chunk (one reader kept across the chunks) must give exactly the lines one
// read of the file gives, and a parser dropped mid-file must not keep the file open.

import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers.js';
import type { SourceFile } from '../formats/importer.js';
import { loadImporters } from '../formats/registry.js';
import { BATCH_BYTES, ChunkParser, type ParseJob } from './chunk-parser.js';
import { lineHash } from '../core/line-hash.js';

/** ~7 MiB of lines: short and long ones, one longer than the reader's 4 MiB buffer, an incomplete last line. */
function writeSample(path: string): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < 6000; i++) lines.push(JSON.stringify({ i, text: 'a'.repeat((i * 37) % 900) }));
  lines.push(JSON.stringify({ big: 'b'.repeat(5 * 1024 * 1024) }));
  for (let i = 0; i < 2000; i++) lines.push(JSON.stringify({ j: i }));
  const bytes = Buffer.from(`${lines.join('\n')}\n{"torn":`);
  writeFileSync(path, bytes);
  return bytes;
}

function job(path: string, end: number): ParseJob {
  const source: SourceFile = { path, root: join(path, '..'), relPath: 'a.jsonl', ledger: 'transcript', ledgerRank: 0, kind: 'jsonl', evidenceOnly: true };
  return { jobId: 1, fileId: 1, source, format: 'claude-code', offset: 0, lineNumber: 1, lastTsKey: null, end };
}

/**
 * This process's open descriptors on `path`. Counted by target, not in all: the fast tier runs
 * test files one after another in one process, and an earlier file's descriptors may close
 * while this one awaits.
 */
const descriptorsOn = (path: string): number => {
  const real = realpathSync(path);
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === real;
    } catch {
      return false; // closed since the listing
    }
  }).length;
};

describe('chunk parser', () => {
  beforeAll(async () => {
    await loadImporters();
  });

  it('reads a file of several chunks line for line as one read does', async () => {
    const path = join(tempDir('hs-chunks-'), 'a.jsonl');
    const bytes = writeSample(path);
    const parser = new ChunkParser(job(path, bytes.length), undefined);
    const seen: { lineNumber: number; offset: number; length: number; hash: Buffer; status: string }[] = [];
    let chunks = 0;
    for (;;) {
      const { chunk, blocks } = parser.parse();
      chunks++;
      for (const b of await blocks) seen.push(...b.lines);
      if (!chunk.more) break;
      expect(chunk.bytesRead).toBeGreaterThanOrEqual(BATCH_BYTES);
      expect(chunk.offset).toBe(seen.reduce((n, l) => n + l.length + 1, 0));
    }
    expect(chunks).toBeGreaterThanOrEqual(3);
    const expected: { offset: number; length: number }[] = [];
    for (let at = 0; at < bytes.length; ) {
      const nl = bytes.indexOf(10, at);
      const end = nl === -1 ? bytes.length : nl;
      expected.push({ offset: at, length: end - at });
      at = end + 1;
    }
    expect(seen.map((l) => ({ offset: l.offset, length: l.length }))).toEqual(expected);
    expect(seen.map((l) => l.lineNumber)).toEqual(expected.map((_, i) => i + 1));
    for (const l of seen) expect(l.hash).toEqual(lineHash(bytes.subarray(l.offset, l.offset + l.length)));
    expect(seen[seen.length - 1]!.status).toBe('incomplete');
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('holds no descriptor between chunks, so a parser dropped mid-file leaks none', async () => {
    const path = join(tempDir('hs-chunks-'), 'a.jsonl');
    const bytes = writeSample(path);
    const parser = new ChunkParser(job(path, bytes.length), undefined);
    const { chunk, blocks } = parser.parse();
    await blocks;
    expect(chunk.more).toBe(true);
    expect(descriptorsOn(path)).toBe(0);
    // The count sees a descriptor when one is held.
    const held = openSync(path, 'r');
    try {
      expect(descriptorsOn(path)).toBe(1);
    } finally {
      closeSync(held);
    }
  });
});
