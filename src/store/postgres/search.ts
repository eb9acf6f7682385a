// Search over the PostgreSQL store: session metadata by ASCII-case-insensitive substring (as
// SQLite's LIKE), message text through a tsvector column with a GIN index, tokenised and ranked
// as SQLite's FTS5 does (fts-tokens.ts), so both engines return the same hits in the same order.
// User terms become quoted lexemes of a tsquery passed as a parameter, never SQL or tsquery syntax.

import type { Format } from '../../core/model.js';
import { keyToIso } from '../../core/time.js';
import {
  METADATA_FIELDS,
  type MessageHit,
  type MetadataField,
  type MetadataHit,
  type NeighbourMessage,
  type SearchFilters,
} from '../store.js';
import { asciiLower, likePattern, MESSAGE_KINDS, METADATA_COLUMN, metadataHit, type MetadataRowDb } from '../shared/metadata-match.js';
import { bm25, phraseQuery, round6, termPhrases, tsQuery } from './fts-tokens.js';
import type { Queryable } from './query.js';

/** Session filters of a search, as SQL conditions over `s`; values go to `params`. */
function sessionFilters(q: SearchFilters, params: unknown[]): string[] {
  const sql: string[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (q.project !== undefined) {
    const n = p(q.project);
    // A substring of the slug or the path, as SQLite's instr (search.ts there).
    sql.push(`(strpos(s.project, ${n}) > 0 OR strpos(s.project_path, ${n}) > 0)`);
  }
  if (q.format !== undefined) sql.push(`s.format = ${p(q.format)}`);
  if (q.startedFrom !== undefined) sql.push(`s.started_at >= ${p(q.startedFrom)}`);
  if (q.startedBefore !== undefined) sql.push(`s.started_at < ${p(q.startedBefore)}`);
  return sql;
}

export async function searchSessionMetadata(db: Queryable, q: SearchFilters): Promise<{ total: number; hits: MetadataHit[] }> {
  if (q.terms.length === 0) return { total: 0, hits: [] };
  const params: unknown[] = [];
  const sql = sessionFilters(q, params);
  // lower() on "C"-collated columns folds ASCII only: the same rule as SQLite's LIKE.
  const like = (f: MetadataField, n: string) => `lower(${METADATA_COLUMN[f]}) LIKE ${n} ESCAPE '\\'`;
  const termParams = q.terms.map((t) => {
    params.push(likePattern(asciiLower(t.text)));
    return `$${params.length}`;
  });
  for (const n of termParams) sql.push(`(${METADATA_FIELDS.map((f) => like(f, n)).join(' OR ')})`);
  const where = `WHERE ${sql.join(' AND ')}`;
  const fieldRank = `CASE ${METADATA_FIELDS.map((f, i) => `WHEN ${termParams.map((n) => like(f, n)).join(' AND ')} THEN ${i}`).join(' ')} ELSE ${METADATA_FIELDS.length} END`;
  const { rows: count } = await db.query<{ n: number }>(`SELECT count(*) AS n FROM sessions s ${where}`, params);
  const { rows } = await db.query<MetadataRowDb>(
    `SELECT s.id, s.format, s.project, s.project_path, s.title, s.first_user_message, s.agent_name, s.started_at
     FROM sessions s ${where}
     ORDER BY ${fieldRank}, s.started_at IS NULL, s.started_at DESC, s.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, q.limit, q.offset],
  );
  return {
    total: count[0]!.n,
    hits: rows.map((r) => metadataHit(r, q.terms)),
  };
}

interface MessageRowDb {
  eid: number;
  sid: number;
  file_id: number;
  line_number: number;
  fts_len: number;
  session_id: string;
  format: Format;
  project: string | null;
  started_at: string | null;
  [freq: `f${number}`]: number;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export async function searchMessages(
  db: Queryable,
  q: SearchFilters & { context?: number },
): Promise<{ total: number; hits: MessageHit[] }> {
  const phrases = termPhrases(q.terms);
  const query = tsQuery(phrases);
  if (query === null) return { total: 0, hits: [] };
  const params: unknown[] = [query];
  const filters = sessionFilters(q, params);
  const freqs = phrases.map((p, i) => {
    params.push(p.tokens, p.prefix);
    return `phrase_freq(e.fts, $${params.length - 1}::text[], $${params.length}::boolean) AS f${i}`;
  });
  const { rows } = await db.query<MessageRowDb>(
    `SELECT e.id AS eid, e.sid, e.file_id, e.line_number, e.fts_len, s.id AS session_id, s.format, s.project, s.started_at, ${freqs.join(', ')}
     FROM events e JOIN sessions s ON s.sid = e.sid WHERE e.fts @@ $1::tsquery ${filters.map((f) => `AND ${f}`).join(' ')}`,
    params,
  );
  if (rows.length === 0) return { total: 0, hits: [] };
  // bm25 needs the totals of the whole index and each phrase's row count, as FTS5 keeps them.
  const { rows: totals } = await db.query<{ rows: number; tokens: number }>('SELECT rows, tokens FROM fts_stats');
  const hits: number[] = [];
  for (const p of phrases) {
    const { rows: n } = await db.query<{ n: number }>('SELECT count(*) AS n FROM events WHERE fts @@ $1::tsquery', [phraseQuery(p)]);
    hits.push(n[0]!.n);
  }
  const stats = { rows: totals[0]!.rows, tokens: totals[0]!.tokens, hits };
  // One hit per source line (message parts), at its best rank; the rank is rounded before ordering
  // so that float noise never decides between two hits that show the same score (recency does).
  const lines = new Map<string, { row: MessageRowDb; rank: number }>();
  for (const r of rows) {
    const rank = bm25(stats, phrases.map((_, i) => r[`f${i}`] ?? 0), r.fts_len);
    const key = `${r.file_id}:${r.line_number}`;
    const best = lines.get(key);
    if (!best || rank < best.rank || (rank === best.rank && r.eid < best.row.eid)) lines.set(key, { row: r, rank });
  }
  const ranked = [...lines.values()].map((l) => ({ ...l, rank: round6(l.rank) }));
  ranked.sort(
    (a, b) =>
      a.rank - b.rank ||
      Number(a.row.started_at === null) - Number(b.row.started_at === null) ||
      cmp(b.row.started_at ?? '', a.row.started_at ?? '') ||
      cmp(a.row.session_id, b.row.session_id) ||
      a.row.file_id - b.row.file_id ||
      a.row.line_number - b.row.line_number,
  );
  const page = ranked.slice(q.offset, q.offset + q.limit);
  const context = q.context ?? 0;
  const out: MessageHit[] = [];
  for (const { row: r, rank } of page) {
    const { rows: detail } = await db.query<{ seq: number; type: string; kind: string; summary: string; ledger: string }>(
      'SELECT e.seq, e.type, e.kind, e.summary, f.ledger FROM events e JOIN files f ON f.id = e.file_id WHERE e.id = $1',
      [r.eid],
    );
    const d = detail[0]!;
    const at = { sid: r.sid, seq: d.seq, fileId: r.file_id, line: r.line_number };
    out.push({
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
      // bm25 is negative, lower is better; the score shown is its opposite (as the SQLite engine).
      score: rank === 0 ? 0 : -rank,
      before: context > 0 ? await neighbours(db, at, context, 'before') : [],
      after: context > 0 ? await neighbours(db, at, context, 'after') : [],
    });
  }
  return { total: ranked.length, hits: out };
}

/** Messages of the hit's session and file just before or after it (by event order); empty messages are no context. */
async function neighbours(
  db: Queryable,
  at: { sid: number; seq: number; fileId: number; line: number },
  n: number,
  side: 'before' | 'after',
): Promise<NeighbourMessage[]> {
  const cond = side === 'before' ? 'seq < $2 AND line_number < $4' : 'seq > $2 AND line_number > $4';
  const order = side === 'before' ? 'seq DESC' : 'seq';
  const { rows } = await db.query<{ line_number: number; type: string; kind: string; summary: string }>(
    `SELECT line_number, type, kind, summary FROM events WHERE sid = $1 AND ${cond} AND file_id = $3 AND kind IN ${MESSAGE_KINDS}
     AND summary <> '' ORDER BY ${order} LIMIT $5`,
    [at.sid, at.seq, at.fileId, at.line, n],
  );
  if (side === 'before') rows.reverse();
  return rows.map((x) => ({ lineNumber: x.line_number, eventType: x.type, kind: x.kind, summary: x.summary }));
}
