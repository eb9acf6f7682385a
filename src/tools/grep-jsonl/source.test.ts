// Reading live files gives the same lines as the evidence: a last line without a newline (a
// sub-agent's .meta.json is one such line) and a line longer than one read (a literal across the
// read boundary); the quick file list of scope "all" equals the session-by-session walk. A file
// whose evidence fails to read mid-way is handed to the visitor after the blocks before it.
// Searches run the compiled worker: `npm run build` first.

import { writeFileSync } from 'node:fs';
import { EvidenceDamaged } from '../../core/errors.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import type { PackedEvidenceBlockView, Store } from '../../store/store.js';
import { everySessionFiles } from './every-session.js';
import { grepJsonl } from './index.js';
import { scanLedgerFiles, type EvidenceBlock } from './source.js';

type Result = Record<string, any>;
const SUBAGENTS = 'projects/-home-USER-projects-spotter-worktrees-spotter-fum/8463c716-a2ea-4c14-9efa-87158ebd9f20/subagents';

async function both(s: SqliteStore, args: Record<string, unknown>): Promise<{ live: Result; evidence: Result }> {
  const call = (readFrom: string) => runTool(grepJsonl, { ...args, read_from: readFrom, limit: 500, max_bytes: 10_000_000 }, { store: s }) as Promise<Result>;
  return { live: await call('auto'), evidence: await call('evidence') };
}

const sameHits = (r: Result) => r.entries.map(({ read_from, ...e }: Result) => e);

describe('grep_jsonl reading live files', () => {
  it('finds a last line without a newline, as the evidence does', async () => {
    const root = copyFixture('claude-code');
    const meta = join(root, SUBAGENTS, 'agent-a7be2f0.meta.json');
    writeFileSync(meta, '{"agentType":"general-purpose","description":"MARKER-META café"}'); // no newline
    const s = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(s, [root]);
    const { live, evidence } = await both(s, { pattern: 'MARKER-META', scope: 'all' });
    expect(evidence.count).toBe(1);
    expect(live.count).toBe(1);
    expect(live.entries[0]).toMatchObject({ file: `${SUBAGENTS}/agent-a7be2f0.meta.json`, line_number: 1, read_from: 'live' });
    expect(live.entries[0].raw).toBe('{"agentType":"general-purpose","description":"MARKER-META café"}');
    expect(sameHits(live)).toEqual(sameHits(evidence));
    await s.close();
  });

  it('finds a literal that straddles the 4 MiB read boundary inside a long line, with every line number as the evidence has it', async () => {
    const root = copyFixture('claude-code');
    const file = join(root, SUBAGENTS, 'agent-a7be2f0.jsonl');
    const { readFileSync } = await import('node:fs');
    const head = readFileSync(file, 'utf8');
    // A long line that ends past 4 MiB, the literal cut in two by the first read, then two more.
    const pad = 4 * 1024 * 1024 - Buffer.byteLength(head) - 30;
    const long = JSON.stringify({ type: 'note', text: `${'é'.repeat(pad >> 2)}${'x'.repeat(pad - 2 * (pad >> 2))}STRADDLE-MARKER` });
    writeFileSync(file, `${head}${long}\n{"type":"note","text":"STRADDLE-MARKER again"}\n`);
    const s = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(s, [root]);
    const { live, evidence } = await both(s, { pattern: 'STRADDLE-MARKER', scope: 'all' });
    const lines = head.split('\n').length; // the long line's number
    expect(evidence.entries.map((e: Result) => e.line_number)).toEqual([lines, lines + 1]);
    expect(live.read_from).toBe('live');
    expect(sameHits(live)).toEqual(sameHits(evidence));
    await s.close();
  });

  it('answers the same from stored blocks inflated by the workers as from blocks the store inflates, on a page and past it', async () => {
    const s = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(s, [copyFixture('claude-code'), copyFixture('amplifier/normal')]);
    // The same store without scanPackedEvidence (as a redacting wrapper is): blocks come inflated.
    const inflating = new Proxy(s, { get: (t, key) => (key === 'scanPackedEvidence' ? undefined : Reflect.get(t, key, t)) });
    expect(typeof s.scanPackedEvidence).toBe('function');
    for (const window of [{ limit: 500, offset: 0 }, { limit: 3, offset: 0 }, { limit: 2, offset: 7 }]) {
      const call = (store: SqliteStore) => runTool(grepJsonl, { pattern: '"type"', scope: 'all', read_from: 'evidence', max_bytes: 10_000_000, ...window }, { store }) as Promise<Result>;
      const packed = await call(s);
      const inflated = await call(inflating);
      expect(packed.count).toBeGreaterThan(20);
      expect(packed.entries.length).toBe(Math.min(window.limit, packed.count - window.offset));
      expect(packed).toEqual(inflated);
    }
    await s.close();
  });

  it('lists, without filters, the same files with the same owners as the session-by-session walk', async () => {
    const s = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(s, [copyFixture('claude-code'), copyFixture('amplifier/normal')]);
    const quick = await everySessionFiles(s, {});
    const walked = await everySessionFiles(s, { project: '' }); // a filter every session passes: the walk
    expect(quick.files.length).toBeGreaterThan(3);
    expect(quick).toEqual(walked);
    await s.close();
  });

  it("hands a big file's evidence to the workers still compressed, resuming after a pause without repeating a block", async () => {
    // A store that offers only compressed blocks: a big file read from the evidence must not ask for inflated ones.
    const packedBlock = (n: number): PackedEvidenceBlockView => ({
      fileId: 7,
      file: 'big.jsonl',
      lines: [{ lineNumber: n, start: 0, length: 1, status: 'ok' }],
      packed: { data: Buffer.from([n]), rawBytes: 2 },
    });
    let scans = 0;
    const store = {
      scanEvidence: () => Promise.reject(new Error('a big file was inflated on this thread')),
      async scanPackedEvidence(_ids: number[], visit: (b: PackedEvidenceBlockView) => boolean | void) {
        scans++;
        for (const n of [1, 2, 3]) if (visit(packedBlock(n)) === false) return;
      },
    } as unknown as Store;
    const seen: EvidenceBlock[] = [];
    let pauses = 1; // the consumer is behind once, after the first block
    const big = { fileId: 7, file: 'big.jsonl', lines: 3, path: '/nonexistent/big.jsonl', size: 64 * 1024 * 1024, mtimeMs: 0, offset: 64 * 1024 * 1024 };
    await scanLedgerFiles(
      store,
      [big],
      { evidence: (b) => void seen.push(b), live: () => false, skipped: () => {}, unreadable: () => false },
      { backlog: () => (seen.length > 0 && pauses-- > 0 ? Promise.resolve() : null), evidenceOnly: new Set(), holding: null },
    );
    expect(seen.map((b) => b.lines[0]!.lineNumber)).toEqual([1, 2, 3]);
    expect(seen.every((b) => 'packed' in b)).toBe(true);
    expect(scans).toBe(2); // the pause restarted the scan, which skipped the block handed over before it
  });

  it('visits the blocks before a failure, then hands the file to unreadable, which says whether the scan goes on', async () => {
    const block = (fileId: number, n: number): EvidenceBlock => ({ fileId, file: `f${fileId}`, data: Buffer.from('x\n'), lines: [{ lineNumber: n, start: 0, length: 1, status: 'ok' }] });
    // File 1 (small) and file 2 (big) fail after their first block; file 3 is whole.
    const store = {
      async scanEvidence(ids: number[], visit: (b: EvidenceBlock) => boolean | void) {
        const id = ids[0]!;
        visit(block(id, 1));
        if (id !== 3) throw EvidenceDamaged(`f${id}`, 2, 'Decompression failed');
        visit(block(id, 2));
      },
    } as unknown as Store;
    const file = (fileId: number, size: number) => ({ fileId, file: `f${fileId}`, lines: 2, path: '/nonexistent', size, mtimeMs: 0, offset: size });
    const files = [file(1, 10), file(2, 64 * 1024 * 1024), file(3, 10)];
    const scan = async (goOn: boolean) => {
      const seen: string[] = [];
      const done = scanLedgerFiles(
        store,
        files,
        {
          evidence: (b) => void seen.push(`${b.file}:${b.lines[0]!.lineNumber}`),
          live: () => false,
          skipped: () => {},
          unreadable: (f, err) => (seen.push(`${f.file} unreadable: ${(err as { code: string }).code}`), goOn),
        },
        { backlog: () => null, evidenceOnly: new Set(), holding: null },
      );
      return { seen, done };
    };
    const goingOn = await scan(true);
    await goingOn.done;
    expect(goingOn.seen).toEqual(['f1:1', 'f1 unreadable: EVIDENCE_DAMAGED', 'f2:1', 'f2 unreadable: EVIDENCE_DAMAGED', 'f3:1', 'f3:2']);
    const stopping = await scan(false);
    await expect(stopping.done).rejects.toMatchObject({ code: 'EVIDENCE_DAMAGED', details: { file: 'f1', line: 2 } });
    expect(stopping.seen).toEqual(['f1:1', 'f1 unreadable: EVIDENCE_DAMAGED']);
  });
});
