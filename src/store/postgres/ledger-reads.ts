// Reads by ledger from PostgreSQL: exact evidence lines by address, ledger entries by event type,
// and a block-by-block scan of the evidence for grep (same results as sqlite/ledger-reads.ts).

import { brotliDecompressSync } from 'node:zlib';
import { partsToKey } from '../../core/time.js';
import { unpackLines } from '../sqlite/line-index.js';
import { visitBlocks, type StoredBlock } from '../shared/visit-blocks.js';
import type { EvidenceBlockView, EvidenceRef, LedgerEntryQuery, LedgerEntryRow, RawLineRow } from '../store.js';
import type { Queryable } from './query.js';

/** Blocks fetched per round trip while scanning (each up to 512 KiB of input, ~1/6 of it stored). */
const SCAN_FETCH = 16;

type BlockRow = StoredBlock;

export async function relPaths(db: Queryable, fileIds: number[]): Promise<Map<number, string>> {
  const { rows } = await db.query<{ id: number; rel_path: string }>('SELECT id, rel_path FROM files WHERE id = ANY($1::int[])', [fileIds]);
  const byId = new Map(rows.map((r) => [r.id, r.rel_path]));
  return new Map(fileIds.map((id) => [id, byId.get(id) ?? '']));
}

/** Exact lines by (file, line), in the order asked; one decompression per block touched. */
export async function readEvidenceLines(db: Queryable, refs: EvidenceRef[]): Promise<RawLineRow[]> {
  if (refs.length === 0) return [];
  const paths = await relPaths(db, [...new Set(refs.map((r) => r.fileId))]);
  // The block of each address in one round trip, then each distinct block once.
  const { rows } = await db.query<{ n: number; file_id: number; first_line: number | null }>(
    `SELECT r.n, r.file_id, (SELECT b.first_line FROM blocks b WHERE b.file_id = r.file_id AND b.first_line <= r.line
       ORDER BY b.first_line DESC LIMIT 1) AS first_line
     FROM unnest($1::int[], $2::int[]) WITH ORDINALITY AS r(file_id, line, n)`,
    [refs.map((r) => r.fileId), refs.map((r) => r.lineNumber)],
  );
  const blockKeys = [...new Set(rows.filter((r) => r.first_line !== null).map((r) => `${r.file_id}:${r.first_line}`))];
  const blocks = new Map<string, BlockRow & { raw?: Buffer }>();
  if (blockKeys.length) {
    const { rows: data } = await db.query<BlockRow & { file_id: number }>(
      `SELECT b.file_id, b.first_line, b.first_offset, b.raw_bytes, b.line_index, b.data FROM blocks b
       JOIN unnest($1::int[], $2::int[]) AS k(file_id, first_line) ON b.file_id = k.file_id AND b.first_line = k.first_line`,
      [blockKeys.map((k) => Number(k.split(':')[0])), blockKeys.map((k) => Number(k.split(':')[1]))],
    );
    for (const b of data) blocks.set(`${b.file_id}:${b.first_line}`, b);
  }
  const firstLines = new Map(rows.map((r) => [r.n, r.first_line]));
  const out: RawLineRow[] = [];
  refs.forEach((ref, i) => {
    const firstLine = firstLines.get(i + 1);
    if (firstLine === null || firstLine === undefined) return;
    const b = blocks.get(`${ref.fileId}:${firstLine}`);
    if (!b) return;
    const line = unpackLines(b.line_index, b.first_line, b.first_offset).find((l) => l.lineNumber === ref.lineNumber);
    if (!line) return;
    b.raw ??= brotliDecompressSync(b.data);
    const start = line.offset - b.first_offset;
    out.push({
      file: paths.get(ref.fileId) ?? '',
      fileId: ref.fileId,
      lineNumber: line.lineNumber,
      offset: line.offset,
      raw: b.raw.subarray(start, start + line.length),
      status: line.status,
      hash: line.hash.toString('hex'),
    });
  });
  return out;
}

/**
 * One row per entry (a line's first event), filtered by type and session, in ledger order: files
 * in reading order, each counted, and only the files holding the page read.
 */
export async function readLedgerEntries(db: Queryable, q: LedgerEntryQuery): Promise<{ total: number; entries: LedgerEntryRow[] }> {
  const params: unknown[] = [0];
  const conds = ['e.file_id = $1'];
  if (q.type !== undefined) {
    params.push(q.type);
    conds.push(`e.type = $${params.length}`);
  }
  if (q.sessionId !== undefined) {
    const { rows } = await db.query<{ sid: number }>('SELECT sid FROM sessions WHERE id = $1', [q.sessionId]);
    params.push(rows[0]?.sid ?? -1);
    conds.push(`e.sid = $${params.length}`);
  }
  const where = conds.join(' AND ');
  const paths = await relPaths(db, q.fileIds);
  let total = 0;
  let skip = q.offset;
  const entries: LedgerEntryRow[] = [];
  for (const fileId of q.fileIds) {
    params[0] = fileId;
    const { rows: c } = await db.query<{ n: number }>(`SELECT count(DISTINCT e.line_number) AS n FROM events e WHERE ${where}`, params);
    const n = c[0]!.n;
    total += n;
    if (entries.length >= q.limit || n === 0) continue;
    if (skip >= n) {
      skip -= n;
      continue;
    }
    const want = Math.min(q.limit - entries.length, n - skip);
    const { rows } = await db.query<{ line_number: number; type: string; id: string | null; ts_ms: number | null; ts_ns: number | null }>(
      `SELECT DISTINCT ON (e.line_number) e.line_number, e.type, s.id, e.ts_ms, e.ts_ns FROM events e LEFT JOIN sessions s ON s.sid = e.sid
       WHERE ${where} ORDER BY e.line_number, e.part, e.seq LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, want, skip],
    );
    for (const r of rows) {
      entries.push({
        fileId,
        file: paths.get(fileId) ?? '',
        lineNumber: r.line_number,
        type: r.type,
        sessionId: r.id ?? null,
        tsKey: r.ts_ms === null ? null : partsToKey(r.ts_ms, r.ts_ns ?? 0),
      });
    }
    skip = 0;
  }
  return { total, entries };
}

export async function readLedgerEventTypes(db: Queryable, fileIds: number[]): Promise<{ type: string; count: number }[]> {
  // Distinct lines per file, summed over files (a line belongs to one file), as SQLite counts them.
  const { rows } = await db.query<{ type: string; n: number }>(
    `SELECT type, sum(n) AS n FROM (SELECT file_id, type, count(DISTINCT line_number) AS n FROM events
     WHERE file_id = ANY($1::int[]) GROUP BY file_id, type) x GROUP BY type ORDER BY type`,
    [fileIds],
  );
  return rows.map((r) => ({ type: r.type, count: r.n }));
}

/** Visit every block of the files in reading order; blocks are fetched a few at a time and decompressed ahead. */
export async function scanEvidence(db: Queryable, fileIds: number[], visit: (block: EvidenceBlockView) => boolean | void): Promise<void> {
  const paths = await relPaths(db, fileIds);
  for (const fileId of fileIds) {
    let after = -1;
    for (;;) {
      const { rows } = await db.query<BlockRow>(
        `SELECT first_line, first_offset, raw_bytes, line_index, data FROM blocks WHERE file_id = $1 AND first_line > $2
         ORDER BY first_line LIMIT ${SCAN_FETCH}`,
        [fileId, after],
      );
      if (rows.length === 0) break;
      after = rows[rows.length - 1]!.first_line;
      if (!(await visitBlocks(rows, fileId, paths.get(fileId) ?? '', visit))) return;
      if (rows.length < SCAN_FETCH) break;
    }
  }
}
