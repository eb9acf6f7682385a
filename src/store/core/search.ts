// Search, the parts both engines share: session metadata by ASCII-case-insensitive substring (as
// SQLite's LIKE folds case), the session filters of a search, and a message hit's details and
// neighbouring messages. Matching and ranking message text is the engine's own (FTS5 on SQLite,
// a tsvector column ranked as FTS5 ranks on PostgreSQL).

import { keyToIso } from '../../core/time.js';
import type { Format } from '../../core/model.js';
import { METADATA_FIELDS, type MessageHit, type MetadataField, type MetadataHit, type NeighbourMessage, type SearchFilters } from '../store.js';
import { asciiLower, likePattern, MESSAGE_KINDS, METADATA_COLUMN, metadataHit, type MetadataRowDb } from '../shared/metadata-match.js';
import { projectInScope } from './project-scope.js';
import { first, type Sql } from './sql.js';

/** Adds a value to `params` and returns its placeholder. */
export function binder(params: unknown[]): (value: unknown) => string {
  return (value) => {
    params.push(value);
    return `$${params.length}`;
  };
}

/** Session filters of a search, as SQL conditions over `s`; values go to `params`. */
export function sessionFilters(sql: Sql, q: SearchFilters, params: unknown[]): string[] {
  const p = binder(params);
  const conds: string[] = [];
  if (q.project !== undefined) {
    // A substring of the slug or the path (`--project spotter` finds -home-marco-projects-spotter).
    const n = p(q.project);
    conds.push(`(${sql.dialect.contains('s.project', n)} OR ${sql.dialect.contains('s.project_path', n)})`);
  }
  if (q.projects !== undefined) conds.push(projectInScope(sql, 's.project', p(q.projects)));
  if (q.format !== undefined) conds.push(`s.format = ${p(q.format)}`);
  if (q.startedFrom !== undefined) conds.push(`s.started_at >= ${p(q.startedFrom)}`);
  if (q.startedBefore !== undefined) conds.push(`s.started_at < ${p(q.startedBefore)}`);
  return conds;
}

export async function searchSessionMetadata(sql: Sql, q: SearchFilters): Promise<{ total: number; hits: MetadataHit[] }> {
  if (q.terms.length === 0) return { total: 0, hits: [] };
  const params: unknown[] = [];
  const conds = sessionFilters(sql, q, params);
  const p = binder(params);
  const like = (f: MetadataField, n: string) => `${sql.dialect.asciiLower(METADATA_COLUMN[f])} LIKE ${n} ESCAPE '\\'`;
  const terms = q.terms.map((t) => p(likePattern(asciiLower(t.text))));
  for (const n of terms) conds.push(`(${METADATA_FIELDS.map((f) => like(f, n)).join(' OR ')})`);
  const where = `WHERE ${conds.join(' AND ')}`;
  // Best field first: the same rule as matchedField's first branch, so the order and the
  // reported field agree (a session whose terms are spread over fields comes last).
  const fieldRank = `CASE ${METADATA_FIELDS.map((f, i) => `WHEN ${terms.map((n) => like(f, n)).join(' AND ')} THEN ${i}`).join(' ')} ELSE ${METADATA_FIELDS.length} END`;
  const total = (await first<{ n: number }>(sql, `SELECT count(*) AS n FROM sessions s ${where}`, params))!.n;
  const rows = await sql.all<MetadataRowDb>(
    `SELECT s.id, s.format, s.project, s.project_path, s.title, s.first_user_message, s.agent_name, s.started_at
     FROM sessions s ${where}
     ORDER BY ${fieldRank}, s.started_at IS NULL, s.started_at DESC, s.id LIMIT ${p(q.limit)} OFFSET ${p(q.offset)}`,
    params,
  );
  return { total, hits: rows.map((r) => metadataHit(r, q.terms)) };
}

/** A matching line as the engine ranked it: its first matching event, session and rank (bm25: negative, lower is better). */
export interface RankedLine {
  eid: number;
  sid: number;
  file_id: number;
  line_number: number;
  rank: number;
  session_id: string;
  format: Format;
  project: string | null;
  started_at: string | null;
}

/** A page of ranked lines as hits: each event's details and, with `context`, its neighbouring messages. */
export async function messageHits(sql: Sql, page: readonly RankedLine[], context: number): Promise<MessageHit[]> {
  const out: MessageHit[] = [];
  for (const r of page) {
    const d = (await first<{ seq: number; type: string; kind: string; summary: string; ledger: string }>(
      sql,
      'SELECT e.seq, e.type, e.kind, e.summary, f.ledger FROM events e JOIN files f ON f.id = e.file_id WHERE e.id = $1',
      [r.eid],
    ))!;
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
      // The rank is rounded before ordering, so that float noise never decides between two hits
      // that show the same score (recency does); the score shown is its opposite.
      score: r.rank === 0 ? 0 : -r.rank,
      before: context > 0 ? await neighbours(sql, at, context, 'before') : [],
      after: context > 0 ? await neighbours(sql, at, context, 'after') : [],
    });
  }
  return out;
}

/** Messages of the hit's session and file just before or after it (by event order); empty messages are no context. */
async function neighbours(
  sql: Sql,
  at: { sid: number; seq: number; fileId: number; line: number },
  n: number,
  side: 'before' | 'after',
): Promise<NeighbourMessage[]> {
  const cond = side === 'before' ? 'seq < $2 AND line_number < $4' : 'seq > $2 AND line_number > $4';
  const order = side === 'before' ? 'seq DESC' : 'seq';
  const rows = await sql.all<{ line_number: number; type: string; kind: string; summary: string }>(
    `SELECT line_number, type, kind, summary FROM events WHERE sid = $1 AND ${cond} AND file_id = $3 AND kind IN ${MESSAGE_KINDS}
     AND summary <> '' ORDER BY ${order} LIMIT $5`,
    [at.sid, at.seq, at.fileId, at.line, n],
  );
  if (side === 'before') rows.reverse();
  return rows.map((x) => ({ lineNumber: x.line_number, eventType: x.type, kind: x.kind, summary: x.summary }));
}
