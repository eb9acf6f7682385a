// raw_lines on a line larger than max_bytes (issue 12 item 8): before, zero lines came back and
// next_from_line never moved, so a line over 10 MB (the max_bytes ceiling) could not be read.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { rawLines } from './index.js';

const SID = '22222222-3333-4444-5555-666666666666';
let store: SqliteStore;
let lines: string[];
const call = (args: Record<string, unknown>) => runTool(rawLines, { session_id: SID, ...args }, { store }) as Promise<Record<string, any>>;

beforeAll(async () => {
  const root = tempDir('hs-raw-');
  const project = join(root, 'projects', '-tmp-raw');
  mkdirSync(project, { recursive: true });
  const line = (uuid: string, content: string) =>
    JSON.stringify({ type: 'user', sessionId: SID, cwd: '/tmp/raw', uuid, timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content } });
  lines = [
    line('u1', 'first'),
    // Multi-byte characters and characters JSON escapes, so cuts must respect both.
    line('u2', 'é"\\ ü'.repeat(2_000)),
    line('u3', 'x'.repeat(12_000_000)),
    line('u4', 'last'),
  ];
  writeFileSync(join(project, `${SID}.jsonl`), lines.join('\n') + '\n');
  store = new SqliteStore(join(tempDir('hs-raw-db-'), 'h.db'));
  await ingestPaths(store, [root]);
});

/** Reads line `n` piece by piece with byte_offset until next_byte_offset is null. */
async function readWhole(n: number, maxBytes: number): Promise<{ text: string; calls: number }> {
  const parts: Buffer[] = [];
  let offset = 0;
  for (let calls = 1; ; calls++) {
    const r = await call({ from_line: n, limit: 1, max_bytes: maxBytes, byte_offset: offset });
    expect(r.status).toBe('ok');
    expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThanOrEqual(maxBytes);
    const piece = r.lines[0];
    expect(piece).toMatchObject({ line_number: n, cut: true, byte_offset: offset, byte_length: Buffer.byteLength(lines[n - 1]!) });
    parts.push(Buffer.from(piece.raw, 'utf8'));
    if (piece.next_byte_offset === null) return { text: Buffer.concat(parts).toString('utf8'), calls };
    expect(r).toMatchObject({ next_from_line: n, next_byte_offset: piece.next_byte_offset, truncated: true });
    offset = piece.next_byte_offset;
  }
}

describe('raw_lines: a line larger than max_bytes', () => {
  it('comes back cut with its full length and where to continue, instead of zero lines', async () => {
    const r = await call({ from_line: 2, max_bytes: 5_000 });
    expect(r.lines).toHaveLength(1);
    const piece = r.lines[0];
    expect(piece).toMatchObject({ line_number: 2, cut: true, byte_offset: 0, byte_length: Buffer.byteLength(lines[1]!) });
    expect(piece.next_byte_offset).toBeGreaterThan(0);
    expect(lines[1]!.startsWith(piece.raw)).toBe(true);
    expect(r).toMatchObject({ next_from_line: 2, next_byte_offset: piece.next_byte_offset, has_more: true, truncated: true });
  });

  it('pages through a multi-byte line byte by byte, cutting between characters', async () => {
    const { text, calls } = await readWhole(2, 5_000);
    expect(text).toBe(lines[1]);
    expect(calls).toBeGreaterThan(3);
  });

  it('reads a 12 MB line (over the 10 MB max_bytes ceiling) in two calls, then moves on', async () => {
    const { text, calls } = await readWhole(3, 10_000_000);
    expect(text).toBe(lines[2]);
    expect(calls).toBe(2);
    const last = await call({ from_line: 3, byte_offset: Buffer.byteLength(lines[2]!) - 10, max_bytes: 10_000_000 });
    expect(last).toMatchObject({ next_from_line: 4, next_byte_offset: null });
    expect((await call({ from_line: 4 })).lines.map((l: { raw: string }) => l.raw)).toEqual([lines[3]]);
  });

  it('lines that fit come back whole and uncut, as before', async () => {
    const r = await call({ from_line: 1, limit: 1 });
    expect(r.lines).toEqual([{ line_number: 1, file: `projects/-tmp-raw/${SID}.jsonl`, raw: lines[0] }]);
  });

  it('refuses a byte_offset past the end of the line with a clear error', async () => {
    const r = await call({ from_line: 1, byte_offset: 10_000 });
    expect(r).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
    expect(r.error).toContain(`byte_offset 10000 is not inside line 1 of projects/-tmp-raw/${SID}.jsonl, which is ${Buffer.byteLength(lines[0]!)} bytes long`);
  });
});
