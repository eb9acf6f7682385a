// Message search on SQLite, through the contentless FTS5 index (rowid = events.id). Every user term
// is quoted here, so no query text can be read as an FTS5 operator or be a syntax error.

import type { MessageHit, SearchFilters, SearchTerm } from '../store.js';
import { messageHits, sessionFilters, type RankedLine } from '../core/search.js';
import { first, type Sql } from '../core/sql.js';

/** The FTS5 expression of the terms: each one a quoted string (`""` escapes a quote), prefixes starred. */
export function ftsExpression(terms: SearchTerm[]): string {
  return terms.map((t) => `"${t.text.replace(/"/g, '""')}"${t.kind === 'prefix' ? '*' : ''}`).join(' AND ');
}

export async function searchMessages(sql: Sql, q: SearchFilters & { context?: number }): Promise<{ total: number; hits: MessageHit[] }> {
  if (q.terms.length === 0) return { total: 0, hits: [] };
  const params: unknown[] = [ftsExpression(q.terms)];
  const conds = sessionFilters(sql, q, params);
  const where = conds.length ? `WHERE ${conds.join(' AND ')}` : '';
  // The FTS match runs once (materialised); events of one line (message parts) are one hit, at
  // their best rank, grouped before sessions are joined (a third faster than joining first);
  // count(*) OVER () gives the total in the same pass as the page.
  const from = `WITH hits AS MATERIALIZED (SELECT rowid AS id, bm25(message_fts) AS rank FROM message_fts WHERE message_fts MATCH $1),
    lines AS (SELECT e.id AS eid, e.sid, e.file_id, e.line_number, round(min(h.rank), 6) AS rank
      FROM hits h JOIN events e ON e.id = h.id GROUP BY e.file_id, e.line_number)
    SELECT l.eid, l.sid, l.file_id, l.line_number, l.rank, s.id AS session_id, s.format, s.project, s.started_at, count(*) OVER () AS total
    FROM lines l JOIN sessions s ON s.sid = l.sid ${where}`;
  const rows = await sql.all<RankedLine & { total: number }>(
    `${from} ORDER BY l.rank, s.started_at IS NULL, s.started_at DESC, s.id, l.file_id, l.line_number LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, q.limit, q.offset],
  );
  const total = rows.length
    ? rows[0]!.total
    : q.offset === 0 && q.limit > 0
      ? 0
      : (await first<{ n: number }>(sql, `SELECT count(*) AS n FROM (${from})`, params))!.n;
  return { total, hits: await messageHits(sql, rows, q.context ?? 0) };
}
