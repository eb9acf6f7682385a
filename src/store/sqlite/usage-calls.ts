// The usage_calls table: each session's LLM calls, one narrow row per call as its summariser chose
// them (src/core/llm-calls.ts), so usage reports read a few grouped rows instead of scanning every
// event (a 500 MB corpus: ~32,000 calls among ~280,000 events). The engine only stores and reads.

import type Database from 'better-sqlite3';
import type { LlmCall } from '../../core/events.js';
import type { Format } from '../../core/model.js';
import { keyToParts } from '../../core/time.js';
import type { UsageCallGroupRow, UsageSessionRow } from '../store.js';

/** The table as schema 4 created it (migrations.ts); schema 5 adds tok_rs (USAGE_CALLS_REASONING). */
export const USAGE_CALLS_TABLE = `CREATE TABLE usage_calls (
  sid INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  call_key TEXT NOT NULL,
  -- 1: a copy of another session's call (LlmCall.mirror)
  mirror INTEGER NOT NULL,
  ts_ms INTEGER,
  ts_ns INTEGER NOT NULL,
  model TEXT,
  tok_in INTEGER NOT NULL,
  tok_out INTEGER NOT NULL,
  tok_cw INTEGER NOT NULL,
  tok_cw1h INTEGER NOT NULL,
  tok_cr INTEGER NOT NULL,
  -- a cost the log recorded (Amplifier cost_usd), NULL when none
  cost REAL
);
CREATE INDEX usage_calls_sid ON usage_calls(sid);`;

/** Schema 5: the calls' output-priced tokens outside output (LlmCall.reasoning), 0 for rows before it. */
export const USAGE_CALLS_REASONING = 'ALTER TABLE usage_calls ADD COLUMN tok_rs INTEGER NOT NULL DEFAULT 0;';

const statements = new WeakMap<Database.Database, { del: Database.Statement; ins: Database.Statement }>();

/** Replace the calls of session `sid`. Call inside the transaction that saves its summary. */
export function writeUsageCalls(db: Database.Database, sid: number, calls: readonly LlmCall[]): void {
  let st = statements.get(db);
  if (!st) {
    st = {
      del: db.prepare('DELETE FROM usage_calls WHERE sid = ?'),
      ins: db.prepare(`INSERT INTO usage_calls (sid, seq, call_key, mirror, ts_ms, ts_ns, model, tok_in, tok_out, tok_cw, tok_cw1h, tok_cr, tok_rs, cost)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    };
    statements.set(db, st);
  }
  st.del.run(sid);
  for (const c of calls) {
    const [ms, ns] = c.tsKey === null ? [null, 0] : keyToParts(c.tsKey);
    st.ins.run(sid, c.seq, c.key, c.mirror ? 1 : 0, ms, ns, c.model, c.input, c.output, c.cacheWrite, c.cacheWrite1h, c.cacheRead, c.reasoning ?? 0, c.costUsd);
  }
}

/** Keys of the stored calls of these sessions: mirrors, or first-hand ones. */
export function storedCallKeys(db: Database.Database, sids: readonly number[], mirror: boolean): Set<string> {
  const st = db.prepare('SELECT call_key FROM usage_calls WHERE sid = ? AND mirror = ?').pluck();
  const keys = new Set<string>();
  for (const sid of sids) for (const k of st.all(sid, mirror ? 1 : 0) as string[]) keys.add(k);
  return keys;
}

/**
 * Every session, and the chosen calls summed per session, UTC day, model, long-context side and
 * recorded-cost presence (Store.usageCallGroups): ~32,000 calls of a 500 MB corpus come back as
 * ~1,600 rows.
 */
export function readUsageCallGroups(db: Database.Database, threshold: number): { sessions: UsageSessionRow[]; groups: UsageCallGroupRow[] } {
  const rows = db.prepare('SELECT sid, id, parent_id, project, project_path, format FROM sessions').raw(true).all() as unknown[][];
  const idOf = new Map<number, string>();
  const sessions: UsageSessionRow[] = rows.map((r) => {
    idOf.set(r[0] as number, r[1] as string);
    return { id: r[1] as string, parentId: r[2] as string | null, project: r[3] as string | null, projectPath: r[4] as string | null, format: r[5] as Format };
  });
  const grouped = db
    .prepare(
      `SELECT sid, ts_ms / 86400000 AS day, model, tok_in + tok_cw + tok_cr > ? AS long, cost IS NOT NULL AS has_cost,
       count(*), min(ts_ms), max(ts_ms), sum(tok_in), sum(tok_out), sum(tok_cw), sum(tok_cr), sum(tok_cw1h), sum(cost), sum(tok_rs)
       FROM usage_calls GROUP BY 1, 2, 3, 4, 5`,
    )
    .raw(true)
    .all(threshold) as unknown[][];
  const groups: UsageCallGroupRow[] = [];
  for (const g of grouped) {
    // Rows of a session no longer listed have no session row: no report counts them.
    const sessionId = idOf.get(g[0] as number);
    if (sessionId === undefined) continue;
    groups.push({
      sessionId,
      model: g[2] as string | null,
      long: g[3] === 1,
      calls: g[5] as number,
      firstMs: g[6] as number | null,
      lastMs: g[7] as number | null,
      input: g[8] as number,
      output: g[9] as number,
      cacheWrite: g[10] as number,
      cacheWrite1h: g[12] as number,
      cacheRead: g[11] as number,
      reasoning: g[14] as number,
      recordedUsd: g[4] === 1 ? (g[13] as number) : null,
    });
  }
  return { sessions, groups };
}
