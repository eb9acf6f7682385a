// Writing a session's summary and rolling token totals up the parent chain (children count in
// their parent's totals, as ccusage does; `own` stays beside them).

import type Database from 'better-sqlite3';
import type { SummaryOutput } from '../../formats/importer.js';
import { toTimeKey } from '../../core/time.js';
import { rollUpTotals } from '../shared/token-totals.js';

const statements = new WeakMap<Database.Database, ReturnType<typeof prepare>>();

function prepare(db: Database.Database) {
  return {
    update: db.prepare(`UPDATE sessions SET status = @status, started_at = @startedAt, ended_at = @endedAt, turn_count = @turnCount,
    first_user_message = @firstUserMessage, last_response_preview = @lastResponsePreview, models = @models,
    own_input = @input, own_output = @output, own_cache_write = @cacheWrite, own_cache_read = @cacheRead, own_reasoning = @reasoning,
    llm_calls = @llmCalls, event_count = @eventCount, tool_calls = @toolCalls, tool_errors = @toolErrors,
    errors = @errors, warnings = @warnings, compactions = @compactions, attrs = @attrs, dirty = 0 WHERE sid = @sid`),
    deleteDerived: db.prepare('DELETE FROM defects WHERE session_id = ? AND derived = 1'),
    fileId: db.prepare('SELECT id FROM files WHERE root_id = ? AND rel_path = ? AND superseded = 0'),
    insert: db.prepare(`INSERT OR IGNORE INTO defects (root_id, file_id, rel_path, line, severity, kind, message,
    session_id, derived) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)`),
  };
}

/** Save one summary and replace the session's derived defects. Call inside a transaction. */
export function saveSummary(db: Database.Database, sid: number, id: string, rootId: number, out: SummaryOutput): void {
  let st = statements.get(db);
  if (!st) {
    st = prepare(db);
    statements.set(db, st);
  }
  const s = out.summary;
  st.update.run({
    sid,
    status: s.status,
    startedAt: toTimeKey(s.startedAt),
    endedAt: toTimeKey(s.endedAt),
    turnCount: s.turnCount,
    firstUserMessage: s.firstUserMessage,
    lastResponsePreview: s.lastResponsePreview,
    models: JSON.stringify(s.models),
    input: s.tokens.input,
    output: s.tokens.output,
    cacheWrite: s.tokens.cacheWrite,
    cacheRead: s.tokens.cacheRead,
    reasoning: s.tokens.reasoning ?? 0,
    llmCalls: s.llmCalls,
    eventCount: s.eventCount,
    toolCalls: s.toolCalls,
    toolErrors: s.toolErrors,
    errors: s.errors,
    warnings: s.warnings,
    compactions: s.compactions,
    attrs: JSON.stringify(s.attrs ?? {}),
  });
  st.deleteDerived.run(id);
  for (const d of out.defects) {
    const f = st.fileId.get(rootId, d.file) as { id: number } | undefined;
    st.insert.run(rootId, f?.id ?? null, d.file, d.line, d.severity, d.kind, d.message, d.sessionId ?? id);
  }
}

interface TokenRowDb {
  sid: number;
  id: string;
  parent_id: string | null;
  own_input: number;
  own_output: number;
  own_cache_write: number;
  own_cache_read: number;
  own_reasoning: number;
  total_input: number;
  total_output: number;
  total_cache_write: number;
  total_cache_read: number;
  total_reasoning: number;
}

/** Recompute every session's totals = own + descendants' (cycles in parent links are cut). */
export function recomputeTotals(db: Database.Database): void {
  const rows = db
    .prepare(`SELECT sid, id, parent_id, own_input, own_output, own_cache_write, own_cache_read, own_reasoning, total_input,
      total_output, total_cache_write, total_cache_read, total_reasoning FROM sessions`)
    .all() as TokenRowDb[];
  const changed = rollUpTotals(
    rows.map((r) => ({
      sid: r.sid,
      id: r.id,
      parentId: r.parent_id,
      own: [r.own_input, r.own_output, r.own_cache_write, r.own_cache_read, r.own_reasoning],
      total: [r.total_input, r.total_output, r.total_cache_write, r.total_cache_read, r.total_reasoning],
    })),
  );
  const update = db.prepare(
    'UPDATE sessions SET total_input = ?, total_output = ?, total_cache_write = ?, total_cache_read = ?, total_reasoning = ? WHERE sid = ?',
  );
  for (const { sid, total: t } of changed) update.run(t[0], t[1], t[2], t[3], t[4], sid);
}

/** Clear the usage of these events of session `sid` for good (SummaryOutput.dropUsage). */
export function clearUsage(db: Database.Database, sid: number, seqs: readonly number[]): void {
  if (seqs.length === 0) return;
  const st = db.prepare('UPDATE events SET tok_in = NULL, tok_out = NULL, tok_cw = NULL, tok_cr = NULL, tok_rs = NULL WHERE sid = ? AND seq = ?');
  for (const seq of seqs) st.run(sid, seq);
}
