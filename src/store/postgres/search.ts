// Message search on PostgreSQL: a tsvector column with a GIN index, tokenised and ranked as
// SQLite's FTS5 does (fts-tokens.ts), so both engines return the same hits in the same order.
// User terms become quoted lexemes of a tsquery passed as a parameter, never SQL or tsquery syntax.

import type { Format } from '../../core/model.js';
import type { MessageHit, SearchFilters } from '../store.js';
import { messageHits, sessionFilters } from '../core/search.js';
import { first, type Sql } from '../core/sql.js';
import { bm25, phraseQuery, round6, termPhrases, tsQuery } from './fts-tokens.js';

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

export async function searchMessages(sql: Sql, q: SearchFilters & { context?: number }): Promise<{ total: number; hits: MessageHit[] }> {
  const phrases = termPhrases(q.terms);
  const query = tsQuery(phrases);
  if (query === null) return { total: 0, hits: [] };
  const params: unknown[] = [query];
  const filters = sessionFilters(sql, q, params);
  const freqs = phrases.map((p, i) => {
    params.push(p.tokens, p.prefix);
    return `phrase_freq(e.fts, $${params.length - 1}::text[], $${params.length}::boolean) AS f${i}`;
  });
  const rows = await sql.all<MessageRowDb>(
    `SELECT e.id AS eid, e.sid, e.file_id, e.line_number, e.fts_len, s.id AS session_id, s.format, s.project, s.started_at, ${freqs.join(', ')}
     FROM events e JOIN sessions s ON s.sid = e.sid WHERE e.fts @@ $1::tsquery ${filters.map((f) => `AND ${f}`).join(' ')}`,
    params,
  );
  if (rows.length === 0) return { total: 0, hits: [] };
  // bm25 needs the totals of the whole index and each phrase's row count, as FTS5 keeps them.
  const totals = (await first<{ rows: number; tokens: number }>(sql, 'SELECT rows, tokens FROM fts_stats'))!;
  const hits: number[] = [];
  for (const p of phrases) hits.push((await first<{ n: number }>(sql, 'SELECT count(*) AS n FROM events WHERE fts @@ $1::tsquery', [phraseQuery(p)]))!.n);
  const stats = { rows: totals.rows, tokens: totals.tokens, hits };
  // One hit per source line (message parts), at its best rank; the rank is rounded before ordering
  // so that float noise never decides between two hits that show the same score (recency does).
  const lines = new Map<string, MessageRowDb & { rank: number }>();
  for (const r of rows) {
    const rank = bm25(stats, phrases.map((_, i) => r[`f${i}`] ?? 0), r.fts_len);
    const key = `${r.file_id}:${r.line_number}`;
    const best = lines.get(key);
    if (!best || rank < best.rank || (rank === best.rank && r.eid < best.eid)) lines.set(key, { ...r, rank });
  }
  const ranked = [...lines.values()].map((l) => ({ ...l, rank: round6(l.rank) }));
  ranked.sort(
    (a, b) =>
      a.rank - b.rank ||
      Number(a.started_at === null) - Number(b.started_at === null) ||
      cmp(b.started_at ?? '', a.started_at ?? '') ||
      cmp(a.session_id, b.session_id) ||
      a.file_id - b.file_id ||
      a.line_number - b.line_number,
  );
  return { total: ranked.length, hits: await messageHits(sql, ranked.slice(q.offset, q.offset + q.limit), q.context ?? 0) };
}
