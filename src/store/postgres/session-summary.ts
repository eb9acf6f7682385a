// Writing session summaries to PostgreSQL and rolling token totals up the parent chain (children
// count in their parent's totals, as ccusage does; `own` stays beside them): the roll-up itself is
// shared/token-totals.ts, as on SQLite.

import { toTimeKey } from '../../core/time.js';
import type { SummaryOutput } from '../../formats/importer.js';
import { rollUpTotals } from '../shared/token-totals.js';
import type { Queryable } from './query.js';

/** Save one summary and replace the session's derived defects. Call inside a transaction. */
export async function saveSummary(db: Queryable, sid: number, id: string, rootId: number, out: SummaryOutput): Promise<void> {
  const s = out.summary;
  await db.query(
    `UPDATE sessions SET status = $2, started_at = $3, ended_at = $4, turn_count = $5, first_user_message = $6,
     last_response_preview = $7, models = $8, own_input = $9, own_output = $10, own_cache_write = $11, own_cache_read = $12,
     llm_calls = $13, event_count = $14, tool_calls = $15, tool_errors = $16, errors = $17, warnings = $18, compactions = $19,
     attrs = $20, own_reasoning = $21, dirty = 0 WHERE sid = $1`,
    [
      sid,
      s.status,
      toTimeKey(s.startedAt),
      toTimeKey(s.endedAt),
      s.turnCount,
      s.firstUserMessage,
      s.lastResponsePreview,
      JSON.stringify(s.models),
      s.tokens.input,
      s.tokens.output,
      s.tokens.cacheWrite,
      s.tokens.cacheRead,
      s.llmCalls,
      s.eventCount,
      s.toolCalls,
      s.toolErrors,
      s.errors,
      s.warnings,
      s.compactions,
      JSON.stringify(s.attrs ?? {}),
      s.tokens.reasoning ?? 0,
    ],
  );
  await db.query('DELETE FROM defects WHERE session_id = $1 AND derived = 1', [id]);
  if (out.defects.length === 0) return;
  // The file a derived defect cites is looked up in SQL (live generation of that path in this root).
  await db.query(
    `INSERT INTO defects (root_id, file_id, rel_path, line, severity, kind, message, session_id, derived)
     SELECT $1, (SELECT f.id FROM files f WHERE f.root_id = $1 AND f.rel_path = d.rel_path AND f.superseded = 0 ORDER BY f.id LIMIT 1),
       d.rel_path, d.line, d.severity, d.kind, d.message, d.session_id, 1
     FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[])
       WITH ORDINALITY AS d(rel_path, line, severity, kind, message, session_id, n)
     ORDER BY d.n
     ON CONFLICT DO NOTHING`,
    [
      rootId,
      out.defects.map((d) => d.file),
      out.defects.map((d) => d.line),
      out.defects.map((d) => d.severity),
      out.defects.map((d) => d.kind),
      out.defects.map((d) => d.message),
      out.defects.map((d) => d.sessionId ?? id),
    ],
  );
}

/** Recompute every session's totals = own + descendants' (cycles in parent links are cut). */
export async function recomputeTotals(db: Queryable): Promise<void> {
  const { rows: raw } = await db.query<Record<string, number | string | null>>(
    `SELECT sid, id, parent_id, own_input, own_output, own_cache_write, own_cache_read, own_reasoning, total_input, total_output,
     total_cache_write, total_cache_read, total_reasoning FROM sessions`,
  );
  const changed = rollUpTotals(
    raw.map((r) => ({
      sid: r.sid as number,
      id: r.id as string,
      parentId: r.parent_id as string | null,
      own: [r.own_input as number, r.own_output as number, r.own_cache_write as number, r.own_cache_read as number, r.own_reasoning as number],
      total: [r.total_input as number, r.total_output as number, r.total_cache_write as number, r.total_cache_read as number, r.total_reasoning as number],
    })),
  );
  if (changed.length === 0) return;
  await db.query(
    `UPDATE sessions s SET total_input = u.i, total_output = u.o, total_cache_write = u.cw, total_cache_read = u.cr, total_reasoning = u.rs
     FROM unnest($1::int[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[]) AS u(sid, i, o, cw, cr, rs) WHERE s.sid = u.sid`,
    [changed.map((c) => c.sid), ...[0, 1, 2, 3, 4].map((i) => changed.map((c) => c.total[i]))],
  );
}

/** Clear the usage of these events of session `sid` for good (SummaryOutput.dropUsage). */
export async function clearUsage(db: Queryable, sid: number, seqs: readonly number[]): Promise<void> {
  if (seqs.length === 0) return;
  await db.query('UPDATE events SET tok_in = NULL, tok_out = NULL, tok_cw = NULL, tok_cr = NULL, tok_rs = NULL WHERE sid = $1 AND seq = ANY($2::int[])', [sid, seqs]);
}
