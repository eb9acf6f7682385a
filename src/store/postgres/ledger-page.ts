// A page of a one-file ledger's entries on PostgreSQL in one statement: the count and the page
// together, where core/ledger-reads.ts counts first and then reads the page (two round trips in a
// row). One file is the common case (a Claude Code transcript, a ledger never rotated); ledgers of
// several files are read by readLedgerEntries. The page is the same: an entry is a line's first
// event; a page past the middle of the file is read backwards from its end (so a deep page walks
// the index from the nearer end); each row's session is looked up after the page is cut.

import { partsToKey } from '../../core/time.js';
import type { LedgerEntryQuery, LedgerEntryRow } from '../store.js';
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

/** The first events of the lines of the page, in `order`, as rows of (line_number, type, sid, ts_ms, ts_ns). */
function pageRows(filter: string, file: string, order: 'ASC' | 'DESC', limit: string, offset: string): string {
  return `(SELECT DISTINCT ON (e.line_number) e.line_number, e.type, e.sid, e.ts_ms, e.ts_ns FROM events e
    WHERE e.file_id = ${file}${filter} ORDER BY e.line_number ${order}, e.part, e.seq LIMIT ${limit} OFFSET ${offset})`;
}

/**
 * readLedgerEntries for a query of exactly one file.
 *
 * @example await readOneFileEntries(sql, { fileIds: [512], type: 'assistant', offset: 340, limit: 10 });
 */
export async function readOneFileEntries(sql: Sql, q: LedgerEntryQuery & { fileIds: [number] }): Promise<{ total: number; entries: LedgerEntryRow[] }> {
  const params: unknown[] = [];
  const filter = entryFilter(q, params);
  params.push(q.fileIds[0], q.offset, q.limit);
  const [file, skip, limit] = [`$${params.length - 2}`, `$${params.length - 1}::bigint`, `$${params.length}::bigint`];
  // want: the entries of the page; back: read from the end (skip past the middle, as readLedgerEntries decides).
  const rows = await sql.arrays(
    `WITH c AS (SELECT count(DISTINCT e.line_number) AS n FROM events e WHERE e.file_id = ${file}${filter}),
       w AS (SELECT n, least(${limit}, greatest(n - ${skip}, 0)) AS want, ${skip} > n / 2.0 AS back FROM c),
       page AS (
         SELECT * FROM ${pageRows(filter, file, 'ASC', '(SELECT want FROM w)', skip)} a WHERE NOT (SELECT back FROM w)
         UNION ALL
         SELECT * FROM ${pageRows(filter, file, 'DESC', '(SELECT want FROM w)', `(SELECT greatest(n - ${skip} - want, 0) FROM w)`)} d WHERE (SELECT back FROM w))
     SELECT w.n, (SELECT rel_path FROM files WHERE id = ${file}), p.line_number, p.type, s.id, p.ts_ms, p.ts_ns
     FROM w LEFT JOIN (page p LEFT JOIN sessions s ON s.sid = p.sid) ON true
     ORDER BY p.line_number`,
    params,
  );
  const total = (rows[0]?.[0] as number | undefined) ?? 0;
  const entries = rows
    .filter((r) => r[2] !== null)
    .map((r) => ({
      fileId: q.fileIds[0],
      file: (r[1] as string | null) ?? '',
      lineNumber: r[2] as number,
      type: r[3] as string,
      sessionId: (r[4] as string | null) ?? null,
      tsKey: r[5] === null ? null : partsToKey(r[5] as number, (r[6] as number | null) ?? 0),
    }));
  return { total, entries };
}
