// A damaged evidence block in the store (its blob cut short, or replaced by one that inflates to
// another size than its row records) gives EVIDENCE_DAMAGED naming the file and line, on every path
// that inflates a block: a page of raw lines (on this thread), grep of that session's ledger from
// the evidence (on the search workers), and a scan of the evidence (the thread pool: sync's mirror
// reads it so). Never other lines, never an internal error; sessions whose blocks are whole still
// answer, and grep over every session answers from them, naming the damaged file in files_skipped.

import { brotliCompressSync } from 'node:zlib';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from './helpers.js';
import { ingestPaths } from '../src/ingest/ingest.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { runTool } from '../src/tools/tool.js';
import { grepJsonl } from '../src/tools/grep-jsonl/index.js';
import { rawLines } from '../src/tools/raw-lines/index.js';
import { renderGrep } from '../src/surfaces/cli/render-tools.js';
import { painter } from '../src/surfaces/cli/colour.js';

type Envelope = { status: string; code?: string; error?: string };

interface Damaged {
  store: SqliteStore;
  fileId: number;
  sessionId: string;
  relPath: string;
  firstLine: number;
  otherSessionId: string;
}

/** A fixture store with the largest block of one session's file damaged by `damage`. */
async function damagedStore(damage: (data: Buffer) => Buffer): Promise<Damaged> {
  const store = new SqliteStore(join(tempDir('hs-damaged-'), 'h.db'));
  await ingestPaths(store, [copyFixture('claude-code')]);
  const block = store.db
    .prepare('SELECT b.file_id, b.first_line, b.data, f.rel_path, f.session_id FROM blocks b JOIN files f ON f.id = b.file_id WHERE f.session_id IS NOT NULL ORDER BY length(b.data) DESC LIMIT 1')
    .get() as { file_id: number; first_line: number; data: Buffer; rel_path: string; session_id: string };
  store.db.prepare('UPDATE blocks SET data = ? WHERE file_id = ? AND first_line = ?').run(damage(block.data), block.file_id, block.first_line);
  const other = store.db.prepare('SELECT session_id FROM files WHERE session_id IS NOT NULL AND session_id <> ? LIMIT 1').get(block.session_id) as { session_id: string };
  return { store, fileId: block.file_id, sessionId: block.session_id, relPath: block.rel_path, firstLine: block.first_line, otherSessionId: other.session_id };
}

function expectDamaged(r: Envelope, d: Damaged, reason: RegExp): void {
  expect(r.status).toBe('error');
  expect(r.code).toBe('EVIDENCE_DAMAGED');
  expect(r.error).toContain(`${d.relPath} from line ${d.firstLine}`);
  expect(r.error).toMatch(reason);
}

describe.each([
  ['cut short', (data: Buffer) => data.subarray(0, data.length >> 1), /unexpected end of file/],
  ['replaced by a blob of another size', () => brotliCompressSync(Buffer.from('{"other":"bytes"}\n')), /18 bytes where \d+ were stored/],
])('an evidence block %s', (_name, damage, reason) => {
  let d: Damaged;
  beforeAll(async () => {
    d = await damagedStore(damage);
  });

  it('is EVIDENCE_DAMAGED for a page of raw lines from that block', async () => {
    const r = (await runTool(rawLines, { session_id: d.sessionId, from_line: d.firstLine + 1, limit: 2 }, { store: d.store })) as Envelope;
    expectDamaged(r, d, reason);
  });

  it('is EVIDENCE_DAMAGED for grep of its ledger from the evidence (the workers inflate it), and another session still answers', async () => {
    const r = (await runTool(grepJsonl, { pattern: 'e', read_from: 'evidence', session_id: d.sessionId }, { store: d.store })) as Envelope;
    expectDamaged(r, d, reason);
    const other = (await runTool(grepJsonl, { pattern: 'e', read_from: 'evidence', scope: 'ledger', session_id: d.otherSessionId }, { store: d.store })) as Envelope & { count?: number };
    expect(other.status).toBe('ok');
    expect(other.count).toBeGreaterThan(0);
  });

  it('is named in files_skipped by grep over every session, which answers from the other files', async () => {
    const r = (await runTool(grepJsonl, { pattern: 'e', read_from: 'evidence', scope: 'all', limit: 500 }, { store: d.store })) as Envelope & Record<string, any>;
    expect(r.status).toBe('ok');
    expect(r.files_skipped).toEqual([{ file: d.relPath, line_number: d.firstLine, code: 'EVIDENCE_DAMAGED', error: expect.stringMatching(reason) }]);
    expect(r.files_skipped[0].error).toContain(`${d.relPath} from line ${d.firstLine}`);
    expect(r.entries.some((e: { file: string }) => e.file !== d.relPath)).toBe(true);
    // `hindsight grep` says so under the matches.
    const shown = renderGrep(r, painter(process.stdout, {}, true)).split('\n');
    expect(shown.at(-1)).toBe(`skipped ${d.relPath} from line ${d.firstLine}: ${r.files_skipped[0].error}`);
    expect(shown.at(-2)).toMatch(/of \d+ matches in \d+ sessions/);
  });

  it('is EVIDENCE_DAMAGED for a scan of the file (inflated on the thread pool), after the blocks before it', async () => {
    const firstLines: number[] = [];
    const scan = d.store.scanEvidence([d.fileId], (block) => {
      firstLines.push(block.lines[0]!.lineNumber);
    });
    await expect(scan).rejects.toMatchObject({ code: 'EVIDENCE_DAMAGED' });
    await expect(scan).rejects.toThrow(`${d.relPath} from line ${d.firstLine}`);
    expect(firstLines.every((line) => line < d.firstLine)).toBe(true);
  });
});
