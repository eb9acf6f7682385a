// A page of a one-file ledger's entries on PostgreSQL in one statement: the count and the page
// together, where core/ledger-reads.ts counts first and then reads the page (two round trips in a
// row). One file is the common case (a Claude Code transcript, a ledger never rotated); ledgers of
// several files are read by readLedgerEntries. The page is the same: an entry is a line's first
// event; a page past the middle of the file is read backwards from its end (so a deep page walks
// the index from the nearer end); each row's session is looked up after the page is cut.
// readOneFileEntryLines brings the page's evidence blocks in the same statement (Store.ledgerEntryLines).

import { partsToKey } from '../../core/time.js';
import type { LedgerEntryLine, LedgerEntryQuery, LedgerEntryRow } from '../store.js';
import { linesOfBlocks, type AddressedBlock } from '../core/ledger-reads.js';
import type { Sql } from '../core/sql.js';

/** The filter of `q` over `events e`, its values pushed to `params`. */
function entryFilter(q: LedgerEntryQuery, params: unknown[]): string {
  let filter = '';
  if (q.type !== undefined) {
    params.push(q.type);
    filter += ` AND e.type = $${params.length}`;
  }
  if (q.sessionId !== undefined) {
    params.push(q.sessionId);
    filter += ` AND e.sid = (SELECT sid FROM sessions WHERE id = $${params.length})`;
  }
  return filter;
}

/**
 * The first events of the lines of the page, in `order`, as rows of (line_number, type, sid, ts_ms,
 * ts_ns). The page's lines are cut first on the (file_id, line_number, type) index alone, then each
 * line's first event is read: a deep page of a type skips its earlier entries in the index instead
 * of reading and sorting every matching event's row (431 heap rows for ten entries, ~0.4 ms).
 */
function pageRows(filter: string, file: string, order: 'ASC' | 'DESC', limit: string, offset: string): string {
  return `(SELECT f.* FROM (SELECT DISTINCT e.line_number FROM events e WHERE e.file_id = ${file}${filter}
      ORDER BY e.line_number ${order} LIMIT ${limit} OFFSET ${offset}) l
    CROSS JOIN LATERAL (SELECT e.line_number, e.type, e.sid, e.ts_ms, e.ts_ns FROM events e
      WHERE e.file_id = ${file} AND e.line_number = l.line_number${filter} ORDER BY e.part, e.seq LIMIT 1) f)`;
}

/** The page statement's parameters and the parts of it both reads share. */
function pageParts(q: LedgerEntryQuery & { fileIds: [number] }): { params: unknown[]; file: string; ctes: string } {
  const params: unknown[] = [];
  const filter = entryFilter(q, params);
  params.push(q.fileIds[0], q.offset, q.limit);
  const [file, skip, limit] = [`$${params.length - 2}`, `$${params.length - 1}::bigint`, `$${params.length}::bigint`];
  // want: the entries of the page; back: read from the end (skip past the middle, as readLedgerEntries decides).
  const ctes = `c AS (SELECT count(*) AS n FROM (SELECT DISTINCT e.line_number FROM events e WHERE e.file_id = ${file}${filter}) x),
       w AS (SELECT n, least(${limit}, greatest(n - ${skip}, 0)) AS want, ${skip} > n / 2.0 AS back FROM c),
       page AS (
         SELECT * FROM ${pageRows(filter, file, 'ASC', '(SELECT want FROM w)', skip)} a WHERE NOT (SELECT back FROM w)
         UNION ALL
         SELECT * FROM ${pageRows(filter, file, 'DESC', '(SELECT want FROM w)', `(SELECT greatest(n - ${skip} - want, 0) FROM w)`)} d WHERE (SELECT back FROM w))`;
  return { params, file, ctes };
}

// A block's bytes travel as base64 text, not as bytea: the driver reads bytea as hex text (twice
// the bytes, on the server, the wire and in the client's decoding; its binary format is not
// usable for rows), and the page's ~80 KB block was ~0.5 ms of the statement's ~1.8 ms that way.
// PostgreSQL's base64 breaks lines every 76 characters; Buffer.from skips the line breaks.
const asBase64 = (column: string) => `encode(${column}, 'base64')`;
const fromBase64 = (text: string): Buffer => Buffer.from(text, 'base64');

/** An entry of the statement's rows: (total, path, line_number, type, session id, ts_ms, ts_ns, …). */
function entryOf(fileId: number, r: unknown[]): LedgerEntryRow {
  return {
    fileId,
    file: (r[1] as string | null) ?? '',
    lineNumber: r[2] as number,
    type: r[3] as string,
    sessionId: (r[4] as string | null) ?? null,
    tsKey: r[5] === null ? null : partsToKey(r[5] as number, (r[6] as number | null) ?? 0),
  };
}

/**
 * readLedgerEntries for a query of exactly one file.
 *
 * @example await readOneFileEntries(sql, { fileIds: [512], type: 'assistant', offset: 340, limit: 10 });
 */
export async function readOneFileEntries(sql: Sql, q: LedgerEntryQuery & { fileIds: [number] }): Promise<{ total: number; entries: LedgerEntryRow[] }> {
  const { params, file, ctes } = pageParts(q);
  const rows = await sql.arrays(
    `WITH ${ctes}
     SELECT w.n, (SELECT rel_path FROM files WHERE id = ${file}), p.line_number, p.type, s.id, p.ts_ms, p.ts_ns
     FROM w LEFT JOIN (page p LEFT JOIN sessions s ON s.sid = p.sid) ON true
     ORDER BY p.line_number`,
    params,
  );
  const total = (rows[0]?.[0] as number | undefined) ?? 0;
  return { total, entries: rows.filter((r) => r[2] !== null).map((r) => entryOf(q.fileIds[0], r)) };
}

/**
 * Store.ledgerEntryLines for a query of exactly one file: the page of readOneFileEntries and the
 * blocks holding its lines in the same statement. Each entry row names its block (the last one
 * starting at or before its line, found on the blocks' unique index); the block's bytes come on
 * the first row of each block only, so a page of ten lines of one ~90 KB block carries it once.
 *
 * @example await readOneFileEntryLines(sql, { fileIds: [512], type: 'assistant', offset: 340, limit: 10 });
 */
export async function readOneFileEntryLines(sql: Sql, q: LedgerEntryQuery & { fileIds: [number] }): Promise<{ total: number; entries: LedgerEntryLine[] }> {
  const { params, file, ctes } = pageParts(q);
  const rows = await sql.arrays(
    `WITH ${ctes},
       held AS (SELECT p.*, (SELECT b.first_line FROM blocks b WHERE b.file_id = ${file} AND b.first_line <= p.line_number
           ORDER BY b.first_line DESC LIMIT 1) AS block_line FROM page p),
       firsts AS (SELECT h.*, row_number() OVER (PARTITION BY h.block_line ORDER BY h.line_number) = 1 AS carries FROM held h)
     SELECT w.n, (SELECT rel_path FROM files WHERE id = ${file}), p.line_number, p.type, s.id, p.ts_ms, p.ts_ns,
       p.block_line, b.first_offset, b.raw_bytes, ${asBase64('b.line_index')}, ${asBase64('b.data')}
     FROM w LEFT JOIN (firsts p LEFT JOIN sessions s ON s.sid = p.sid
       LEFT JOIN blocks b ON p.carries AND b.file_id = ${file} AND b.first_line = p.block_line) ON true
     ORDER BY p.line_number`,
    params,
  );
  const total = (rows[0]?.[0] as number | undefined) ?? 0;
  const fileId = q.fileIds[0];
  const listed = rows.filter((r) => r[2] !== null);
  const blocks: AddressedBlock[] = listed
    .filter((r) => r[11] !== null)
    .map((r) => ({
      file_id: fileId,
      rel_path: (r[1] as string | null) ?? null,
      first_line: r[7] as number,
      first_offset: r[8] as number,
      raw_bytes: r[9] as number,
      line_index: fromBase64(r[10] as string),
      data: fromBase64(r[11] as string),
    }));
  const entries = listed.map((r) => entryOf(fileId, r));
  const lines = linesOfBlocks(blocks, entries);
  const byLine = new Map(lines.map((l) => [l.lineNumber, l.raw]));
  return { total, entries: entries.map((e) => ({ ...e, raw: byLine.get(e.lineNumber) ?? null })) };
}
