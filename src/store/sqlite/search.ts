// Search over the SQLite store: session metadata by substring (LIKE), message text through the
// contentless FTS5 index (rowid = events.id). Every user term is quoted here, so no query text
// can be read as an FTS5 operator or be a syntax error.

import type Database from 'better-sqlite3';
import { keyToIso } from '../../core/time.js';
import type { Format } from '../../core/model.js';
import {
  METADATA_FIELDS,
  type MessageHit,
  type MetadataHit,
  type NeighbourMessage,
  type SearchFilters,
  type SearchTerm,
} from '../store.js';
import { likePattern, MESSAGE_KINDS, METADATA_COLUMN, metadataHit, type MetadataRowDb } from '../shared/metadata-match.js';

/** The FTS5 expression of the terms: each one a quoted string (`""` escapes a quote), prefixes starred. */
export function ftsExpression(terms: SearchTerm[]): string {
  return terms.map((t) => `"${t.text.replace(/"/g, '""')}"${t.kind === 'prefix' ? '*' : ''}`).join(' AND ');
}

/** Session filters of a search, as SQL conditions over `s` with named parameters. */
function sessionFilters(q: SearchFilters): { sql: string[]; params: Record<string, unknown> } {
  const sql: string[] = [];
  const params: Record<string, unknown> = {};
  if (q.project !== undefined) {
    // A substring of the slug or the path (`--project spotter` finds -home-marco-projects-spotter).
    sql.push('(instr(s.project, @project) > 0 OR instr(s.project_path, @project) > 0)');
    params.project = q.project;
  }
  if (q.format !== undefined) {
    sql.push('s.format = @format');
    params.format = q.format;
  }
  if (q.startedFrom !== undefined) {
    sql.push('s.started_at >= @startedFrom');
    params.startedFrom = q.startedFrom;
  }
  if (q.startedBefore !== undefined) {
    sql.push('s.started_at < @startedBefore');
    params.startedBefore = q.startedBefore;
  }
  return { sql, params };
}

export function searchSessionMetadata(db: Database.Database, q: SearchFilters): { total: number; hits: MetadataHit[] } {
  if (q.terms.length === 0) return { total: 0, hits: [] };
  const { sql, params } = sessionFilters(q);
  q.terms.forEach((t, i) => {
    params[`t${i}`] = likePattern(t.text);
    sql.push(`(${METADATA_FIELDS.map((f) => `${METADATA_COLUMN[f]} LIKE @t${i} ESCAPE '\\'`).join(' OR ')})`);
  });
  const where = `WHERE ${sql.join(' AND ')}`;
  // Best field first: the same rule as matchedField's first branch, so the order and the
  // reported field agree (a session whose terms are spread over fields comes last).
  const fieldRank = `CASE ${METADATA_FIELDS.map(
    (f, i) => `WHEN ${q.terms.map((_, j) => `${METADATA_COLUMN[f]} LIKE @t${j} ESCAPE '\\'`).join(' AND ')} THEN ${i}`,
  ).join(' ')} ELSE ${METADATA_FIELDS.length} END`;
  const total = (db.prepare(`SELECT count(*) AS n FROM sessions s ${where}`).get(params) as { n: number }).n;
  const rows = db
    .prepare(
      `SELECT s.id, s.format, s.project, s.project_path, s.title, s.first_user_message, s.agent_name, s.started_at
       FROM sessions s ${where}
       ORDER BY ${fieldRank}, s.started_at IS NULL, s.started_at DESC, s.id LIMIT @limit OFFSET @offset`,
    )
    .all({ ...params, limit: q.limit, offset: q.offset }) as MetadataRowDb[];
  return {
    total,
    hits: rows.map((r) => metadataHit(r, q.terms)),
  };
}

interface MessageRowDb {
  eid: number;
  sid: number;
  file_id: number;
  line_number: number;
  rank: number;
  session_id: string;
  format: Format;
  project: string | null;
  started_at: string | null;
  total: number;
}

interface EventDetailDb {
  seq: number;
  type: string;
  kind: string;
  summary: string;
  ledger: string;
}

export function searchMessages(db: Database.Database, q: SearchFilters & { context?: number }): { total: number; hits: MessageHit[] } {
  if (q.terms.length === 0) return { total: 0, hits: [] };
  const { sql, params } = sessionFilters(q);
  const where = sql.length ? `WHERE ${sql.join(' AND ')}` : '';
  // The FTS match runs once (materialised); events of one line (message parts) are one hit, at
  // their best rank, grouped before sessions are joined (a third faster than joining first);
  // count(*) OVER () gives the total in the same pass as the page. The page's event details are
  // read afterwards, for its rows only.
  const from = `WITH hits AS MATERIALIZED (SELECT rowid AS id, bm25(message_fts) AS rank FROM message_fts WHERE message_fts MATCH @match),
    lines AS (SELECT e.id AS eid, e.sid, e.file_id, e.line_number, round(min(h.rank), 6) AS rank
      FROM hits h JOIN events e ON e.id = h.id GROUP BY e.file_id, e.line_number)
    SELECT l.eid, l.sid, l.file_id, l.line_number, l.rank, s.id AS session_id, s.format, s.project, s.started_at, count(*) OVER () AS total
    FROM lines l JOIN sessions s ON s.sid = l.sid ${where}`;
  const all = { ...params, match: ftsExpression(q.terms) };
  const rows = db
    .prepare(`${from} ORDER BY l.rank, s.started_at IS NULL, s.started_at DESC, s.id, l.file_id, l.line_number LIMIT @limit OFFSET @offset`)
    .all({ ...all, limit: q.limit, offset: q.offset }) as MessageRowDb[];
  const total = rows.length
    ? rows[0]!.total
    : q.offset === 0 && q.limit > 0
      ? 0
      : (db.prepare(`SELECT count(*) AS n FROM (${from})`).get(all) as { n: number }).n;
  const detail = db.prepare('SELECT e.seq, e.type, e.kind, e.summary, f.ledger FROM events e JOIN files f ON f.id = e.file_id WHERE e.id = ?');
  const context = q.context ?? 0;
  const near = context > 0 ? neighbours(db) : null;
  return {
    total,
    hits: rows.map((r) => {
      const d = detail.get(r.eid) as EventDetailDb;
      const at = { sid: r.sid, seq: d.seq, fileId: r.file_id, line: r.line_number };
      return {
        sessionId: r.session_id,
        format: r.format,
        project: r.project,
        startedAt: keyToIso(r.started_at),
        fileId: r.file_id,
        ledger: d.ledger,
        lineNumber: r.line_number,
        eventType: d.type,
        kind: d.kind,
        summary: d.summary,
        // bm25 is negative, lower is better. It is rounded before ordering, so that float noise
        // never decides between two hits that show the same score (recency does).
        score: r.rank === 0 ? 0 : -r.rank,
        before: near ? near(at, context, 'before') : [],
        after: near ? near(at, context, 'after') : [],
      };
    }),
  };
}

/** Messages of the hit's session and file just before or after it (by event order). */
function neighbours(db: Database.Database) {
  // A message with no text (e.g. an assistant turn that only called tools) is no context.
  const cols = 'SELECT line_number, type, kind, summary FROM events';
  const before = db.prepare(
    `${cols} WHERE sid = @sid AND seq < @seq AND file_id = @fileId AND line_number < @line AND kind IN ${MESSAGE_KINDS} AND summary <> ''
     ORDER BY seq DESC LIMIT @n`,
  );
  const after = db.prepare(
    `${cols} WHERE sid = @sid AND seq > @seq AND file_id = @fileId AND line_number > @line AND kind IN ${MESSAGE_KINDS} AND summary <> ''
     ORDER BY seq LIMIT @n`,
  );
  return (at: { sid: number; seq: number; fileId: number; line: number }, n: number, side: 'before' | 'after'): NeighbourMessage[] => {
    const args = { ...at, n };
    const rows = (side === 'before' ? before : after).all(args) as { line_number: number; type: string; kind: string; summary: string }[];
    if (side === 'before') rows.reverse();
    return rows.map((x) => ({ lineNumber: x.line_number, eventType: x.type, kind: x.kind, summary: x.summary }));
  };
}
