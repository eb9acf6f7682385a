// Bulk inserts of one batch (evidence blocks, events with their search tokens, defects): one
// statement each, column arrays unnested server-side, because a batch holds thousands of rows.

import { keyToParts } from '../../core/time.js';
import type { Defect } from '../../core/model.js';
import { packLines } from '../sqlite/line-index.js';
import { compactReasoning, compactTiebreak, compactUsageKey } from '../shared/event-row.js';
import type { IngestBatch } from '../store.js';
import { ftsTokens, tsvectorLiteral } from './fts-tokens.js';
import type { Queryable } from './query.js';

/** PostgreSQL text cannot hold NUL: it becomes U+FFFD (SQLite would keep it; such text is vanishingly rare in logs). */
export function pgText<T extends string | null | undefined>(v: T): T {
  return (typeof v === 'string' && v.includes('\u0000') ? v.replace(/\u0000/g, '\uFFFD') : v) as T;
}

export async function insertBlocks(c: Queryable, fileId: number, batch: IngestBatch): Promise<void> {
  if (batch.blocks.length === 0) return;
  const values: unknown[] = [];
  const tuples = batch.blocks.map((b, i) => {
    values.push(fileId, b.firstLine, b.lines.length, b.firstOffset, b.rawBytes, packLines(b.lines), b.data);
    const p = i * 7;
    return `($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7})`;
  });
  await c.query(
    `INSERT INTO blocks (file_id, first_line, line_count, first_offset, raw_bytes, line_index, data) VALUES ${tuples.join(', ')}`,
    values,
  );
}

/** All events of a batch in one statement: one array per column, unnested server-side. */
export async function insertEvents(c: Queryable, fileId: number, batch: IngestBatch, sids: number[], seqs: number[]): Promise<void> {
  if (batch.events.length === 0) return;
  const cols: unknown[][] = Array.from({ length: 30 }, () => []);
  for (const e of batch.events) {
    const u = e.usage;
    const ids = e.ids;
    const [tsMs, tsNs] = e.tsKey ? keyToParts(e.tsKey) : [null, null];
    const tiebreak = compactTiebreak(e);
    const usageKey = compactUsageKey(e);
    const row = [
      e.lineNumber, e.part, tsMs, tsNs, e.tsMissing ? 1 : 0, e.ledgerRank, pgText(tiebreak), pgText(e.type), e.kind, pgText(e.actor), e.turn,
      pgText(ids.workOrder ?? null), pgText(ids.toolCall ?? null), pgText(ids.message ?? null), pgText(ids.request ?? null),
      pgText(ids.agent ?? null), pgText(ids.entry ?? null), pgText(usageKey), pgText(u ? u.model : null),
      u ? u.input : null, u ? u.output : null, u ? u.cacheWrite : null, u ? u.cacheRead : null, pgText(e.toolName), e.toolStatus,
      pgText(e.summary), Object.keys(e.attrs).length ? pgText(JSON.stringify(e.attrs)) : null,
    ];
    // Indexed as SQLite indexes it: every event with text is a row, even one without a token.
    const tokens = e.text ? ftsTokens(e.text) : null;
    row.push(tokens ? tsvectorLiteral(tokens) : null, tokens ? tokens.length : null, compactReasoning(e));
    row.forEach((v, i) => cols[i]!.push(v));
  }
  // The search totals move with the rows (one statement: a batch is thousands of events).
  await c.query(
    `WITH ins AS (INSERT INTO events (sid, seq, file_id, line_number, part, ts_ms, ts_ns, ts_missing, ledger_rank, tiebreak, type, kind, actor, turn,
       wo_id, tool_call_id, message_id, request_id, agent_id, entry_id, usage_key, model, tok_in, tok_out, tok_cw, tok_cr, tool_name,
       tool_status, summary, attrs, fts, fts_len, tok_rs)
     SELECT u.sid, u.seq, $3, u.line_number, u.part, u.ts_ms, u.ts_ns, u.ts_missing, u.ledger_rank, u.tiebreak, u.type, u.kind, u.actor,
       u.turn, u.wo_id, u.tool_call_id, u.message_id, u.request_id, u.agent_id, u.entry_id, u.usage_key, u.model, u.tok_in, u.tok_out,
       u.tok_cw, u.tok_cr, u.tool_name, u.tool_status, u.summary, u.attrs, u.fts::tsvector, u.fts_len, u.tok_rs
     FROM unnest($1::int[], $2::int[], $4::int[], $5::int[], $6::bigint[], $7::int[], $8::smallint[], $9::int[], $10::text[], $11::text[],
       $12::text[], $13::text[], $14::int[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[], $21::text[],
       $22::text[], $23::bigint[], $24::bigint[], $25::bigint[], $26::bigint[], $27::text[], $28::text[], $29::text[], $30::text[],
       $31::text[], $32::int[], $33::bigint[])
       WITH ORDINALITY AS u(sid, seq, line_number, part, ts_ms, ts_ns, ts_missing, ledger_rank, tiebreak, type, kind, actor, turn, wo_id,
         tool_call_id, message_id, request_id, agent_id, entry_id, usage_key, model, tok_in, tok_out, tok_cw, tok_cr, tool_name,
         tool_status, summary, attrs, fts, fts_len, tok_rs, n)
     ORDER BY u.n
     RETURNING fts_len)
     UPDATE fts_stats SET rows = rows + (SELECT count(fts_len) FROM ins), tokens = tokens + (SELECT coalesce(sum(fts_len), 0) FROM ins)`,
    [sids, seqs, fileId, ...cols],
  );
}

/** Defects, idempotent by (root, file, line, kind); returns how many were new. */
export async function insertDefects(c: Queryable, rootId: number, fileId: number | null, defects: Defect[], derived: boolean): Promise<number> {
  if (defects.length === 0) return 0;
  const res = await c.query(
    `INSERT INTO defects (root_id, file_id, rel_path, line, severity, kind, message, session_id, derived)
     SELECT $1, $2, d.rel_path, d.line, d.severity, d.kind, d.message, d.session_id, $3
     FROM unnest($4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[])
       WITH ORDINALITY AS d(rel_path, line, severity, kind, message, session_id, n)
     ORDER BY d.n
     ON CONFLICT DO NOTHING`,
    [
      rootId, fileId, derived ? 1 : 0,
      defects.map((d) => pgText(d.file)), defects.map((d) => d.line), defects.map((d) => d.severity), defects.map((d) => d.kind),
      defects.map((d) => pgText(d.message)), defects.map((d) => d.sessionId ?? null),
    ],
  );
  return res.rowCount ?? 0;
}
