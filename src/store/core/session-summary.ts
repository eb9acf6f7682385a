// Writing session summaries and rolling token totals up the parent chain (children count in their
// parent's totals, as ccusage does; `own` stays beside them): the roll-up itself is
// shared/token-totals.ts.

import { toTimeKey } from '../../core/time.js';
import type { Defect } from '../../core/model.js';
import type { SummaryOutput } from '../../formats/importer.js';
import { rollUpTotals, type TokenTuple } from '../shared/token-totals.js';
import { RowList, type Sql } from './sql.js';

/** Save one summary and replace the session's derived defects. Call inside a transaction. */
export async function saveSummary(sql: Sql, sid: number, id: string, rootId: number, out: SummaryOutput): Promise<void> {
  const s = out.summary;
  await sql.run(
    `UPDATE sessions SET status = $2, started_at = $3, ended_at = $4, turn_count = $5, first_user_message = $6,
     last_response_preview = $7, models = $8, own_input = $9, own_output = $10, own_cache_write = $11, own_cache_read = $12,
     llm_calls = $13, event_count = $14, tool_calls = $15, tool_errors = $16, errors = $17, warnings = $18, compactions = $19,
     attrs = $20, own_reasoning = $21, dirty = 0 WHERE sid = $1`,
    [
      sid, s.status, toTimeKey(s.startedAt), toTimeKey(s.endedAt), s.turnCount, s.firstUserMessage, s.lastResponsePreview,
      JSON.stringify(s.models), s.tokens.input, s.tokens.output, s.tokens.cacheWrite, s.tokens.cacheRead, s.llmCalls, s.eventCount,
      s.toolCalls, s.toolErrors, s.errors, s.warnings, s.compactions, JSON.stringify(s.attrs ?? {}), s.tokens.reasoning ?? 0,
    ],
  );
  await sql.run('DELETE FROM defects WHERE session_id = $1 AND derived = 1', [id]);
  await insertDefects(sql, rootId, null, out.defects.map((d) => ({ ...d, sessionId: d.sessionId ?? id })), true);
}

/**
 * Defects in list order, idempotent by (root, file, line, kind); returns how many were new. A
 * derived defect (from a summary) names no file id: it cites the live generation of its path.
 */
export async function insertDefects(sql: Sql, rootId: number, fileId: number | null, defects: readonly Defect[], derived: boolean): Promise<number> {
  if (defects.length === 0) return 0;
  return sql.run(
    `INSERT INTO defects (root_id, file_id, rel_path, line, severity, kind, message, session_id, derived)
     SELECT $1, CASE WHEN $3 = 1
       THEN (SELECT f.id FROM files f WHERE f.root_id = $1 AND f.rel_path = d.rel_path AND f.superseded = 0 ORDER BY f.id LIMIT 1)
       ELSE $2 END, d.rel_path, d.line, d.severity, d.kind, d.message, d.session_id, $3
     FROM ${sql.dialect.rows('$4', 'd', [['rel_path', 'text'], ['line', 'int'], ['severity', 'text'], ['kind', 'text'], ['message', 'text'], ['session_id', 'text']])}
     WHERE true ORDER BY d.n
     ON CONFLICT DO NOTHING`,
    [rootId, fileId, derived ? 1 : 0, new RowList(defects.map((d) => [d.file, d.line, d.severity, d.kind, d.message, d.sessionId ?? null]))],
  );
}

const TOKEN_COLUMNS = ['input', 'output', 'cache_write', 'cache_read', 'reasoning'];

/** Recompute every session's totals = own + descendants' (cycles in parent links are cut). */
export async function recomputeTotals(sql: Sql): Promise<void> {
  const rows = await sql.arrays(
    `SELECT sid, id, parent_id, ${TOKEN_COLUMNS.map((c) => `own_${c}`).join(', ')}, ${TOKEN_COLUMNS.map((c) => `total_${c}`).join(', ')} FROM sessions`,
  );
  const changed = rollUpTotals(
    rows.map((r) => ({
      sid: r[0] as number,
      id: r[1] as string,
      parentId: r[2] as string | null,
      own: r.slice(3, 8) as TokenTuple,
      total: r.slice(8, 13) as TokenTuple,
    })),
  );
  if (changed.length === 0) return;
  await sql.run(
    `UPDATE sessions SET ${TOKEN_COLUMNS.map((c, i) => `total_${c} = u.t${i}`).join(', ')}
     FROM ${sql.dialect.rows('$1', 'u', [['sid', 'int'], ...TOKEN_COLUMNS.map((_, i): [string, 'bigint'] => [`t${i}`, 'bigint'])])}
     WHERE sessions.sid = u.sid`,
    [new RowList(changed.map((c) => [c.sid, ...c.total]))],
  );
}

/** Clear the usage of these events of session `sid` for good (SummaryOutput.dropUsage). */
export async function clearUsage(sql: Sql, sid: number, seqs: readonly number[]): Promise<void> {
  if (seqs.length === 0) return;
  await sql.run(
    `UPDATE events SET tok_in = NULL, tok_out = NULL, tok_cw = NULL, tok_cr = NULL, tok_rs = NULL
     WHERE sid = $1 AND ${sql.dialect.inArray('seq', '$2', 'int')}`,
    [sid, seqs],
  );
}
