// Reads by ledger rather than by session: exact evidence lines by address, ledger entries by
// event type (index-backed, so a deep page costs a count per file and one range read), and a
// block-by-block scan of the evidence for grep.

import { brotliDecompressSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import { partsToKey } from '../../core/time.js';
import type { EvidenceBlockView, EvidenceRef, LedgerEntryQuery, LedgerEntryRow, RawLineRow } from '../store.js';
import { unpackLines } from './line-index.js';
import { visitBlocks, type StoredBlock } from '../shared/visit-blocks.js';

interface BlockRow {
  first_line: number;
  first_offset: number;
  line_index: Buffer;
  data: Buffer;
}

function relPaths(db: Database.Database, fileIds: number[]): Map<number, string> {
  const st = db.prepare('SELECT rel_path FROM files WHERE id = ?');
  return new Map(fileIds.map((id) => [id, ((st.get(id) as { rel_path: string } | undefined)?.rel_path ?? '')]));
}

/** Exact lines by (file, line), in the order asked; one decompression per block touched. */
export function readEvidenceLines(db: Database.Database, refs: EvidenceRef[]): RawLineRow[] {
  const blockOf = db.prepare(
    `SELECT first_line, first_offset, line_index, data FROM blocks WHERE file_id = ? AND first_line <= ?
     ORDER BY first_line DESC LIMIT 1`,
  );
  const paths = relPaths(db, [...new Set(refs.map((r) => r.fileId))]);
  const cache = new Map<string, { first: number; raw: Buffer; row: BlockRow }>();
  const out: RawLineRow[] = [];
  for (const ref of refs) {
    const b = blockOf.get(ref.fileId, ref.lineNumber) as BlockRow | undefined;
    if (!b) continue;
    const cacheKey = `${ref.fileId}:${b.first_line}`;
    let block = cache.get(cacheKey);
    if (!block) {
      block = { first: b.first_line, raw: brotliDecompressSync(b.data), row: b };
      cache.set(cacheKey, block);
    }
    const line = unpackLines(b.line_index, b.first_line, b.first_offset).find((l) => l.lineNumber === ref.lineNumber);
    if (!line) continue;
    const start = line.offset - b.first_offset;
    out.push({
      file: paths.get(ref.fileId) ?? '',
      fileId: ref.fileId,
      lineNumber: line.lineNumber,
      offset: line.offset,
      raw: block.raw.subarray(start, start + line.length),
      status: line.status,
      hash: line.hash.toString('hex'),
    });
  }
  return out;
}

/**
 * One row per entry (a line's first event: Claude Code writes several events per line), filtered
 * by type and session, in ledger order. Files are walked in reading order: each costs one indexed
 * count, and only the file holding the page is read.
 */
export function readLedgerEntries(db: Database.Database, q: LedgerEntryQuery): { total: number; entries: LedgerEntryRow[] } {
  const conds = ['e.file_id = @fileId'];
  if (q.type !== undefined) conds.push('e.type = @type');
  let sid: number | undefined;
  if (q.sessionId !== undefined) {
    sid = (db.prepare('SELECT sid FROM sessions WHERE id = ?').get(q.sessionId) as { sid: number } | undefined)?.sid ?? -1;
    conds.push('e.sid = @sid');
  }
  const where = conds.join(' AND ');
  const countSt = db.prepare(`SELECT count(DISTINCT e.line_number) AS n FROM events e WHERE ${where}`);
  // Pages past the middle of a file are read backwards from its end: OFFSET walks the index, so a
  // "last 10 entries" query costs 10 steps instead of the whole ledger.
  const pageSql = (order: 'ASC' | 'DESC') =>
    db
      .prepare(
        `SELECT e.line_number, e.type, s.id, e.ts_ms, e.ts_ns, min(e.part) FROM events e LEFT JOIN sessions s ON s.sid = e.sid
         WHERE ${where} GROUP BY e.line_number ORDER BY e.line_number ${order} LIMIT @limit OFFSET @offset`,
      )
      .raw(true);
  const forward = pageSql('ASC');
  const backward = pageSql('DESC');
  const paths = relPaths(db, q.fileIds);
  const params = (fileId: number) => ({ fileId, ...(q.type !== undefined && { type: q.type }), ...(sid !== undefined && { sid }) });
  let total = 0;
  let skip = q.offset;
  const entries: LedgerEntryRow[] = [];
  for (const fileId of q.fileIds) {
    const n = (countSt.get(params(fileId)) as { n: number }).n;
    total += n;
    if (entries.length >= q.limit || n === 0) continue;
    if (skip >= n) {
      skip -= n;
      continue;
    }
    const want = Math.min(q.limit - entries.length, n - skip);
    const rows =
      skip > n / 2
        ? (backward.all({ ...params(fileId), limit: want, offset: n - skip - want }) as unknown[][]).reverse()
        : (forward.all({ ...params(fileId), limit: want, offset: skip }) as unknown[][]);
    for (const r of rows) {
      entries.push({
        fileId,
        file: paths.get(fileId) ?? '',
        lineNumber: r[0] as number,
        type: r[1] as string,
        sessionId: (r[2] as string | null) ?? null,
        tsKey: r[3] === null ? null : partsToKey(r[3] as number, (r[4] as number | null) ?? 0),
      });
    }
    skip = 0;
  }
  return { total, entries };
}

export function readLedgerEventTypes(db: Database.Database, fileIds: number[]): { type: string; count: number }[] {
  const st = db.prepare('SELECT type, count(DISTINCT line_number) AS n FROM events WHERE file_id = ? GROUP BY type');
  const counts = new Map<string, number>();
  for (const id of fileIds) {
    for (const r of st.all(id) as { type: string; n: number }[]) counts.set(r.type, (counts.get(r.type) ?? 0) + r.n);
  }
  return [...counts.entries()].map(([type, count]) => ({ type, count })).sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
}

/** Visit every block of the files in reading order (shared/visit-blocks.ts decompresses ahead). */
export async function scanEvidence(
  db: Database.Database,
  fileIds: number[],
  visit: (block: EvidenceBlockView) => boolean | void,
): Promise<void> {
  const paths = relPaths(db, fileIds);
  const blocks = db.prepare('SELECT first_line, first_offset, raw_bytes, line_index, data FROM blocks WHERE file_id = ? ORDER BY first_line');
  // Block rows are read up front per file (compressed, ~1/6 of the bytes): the statement must not
  // stay open across the awaits below while an ingest may be writing.
  for (const fileId of fileIds) {
    const rows = blocks.all(fileId) as StoredBlock[];
    if (!(await visitBlocks(rows, fileId, paths.get(fileId) ?? '', visit))) return;
  }
}
