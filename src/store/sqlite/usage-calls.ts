// The usage_calls table: each session's LLM calls, one row per call, kept beside the events so
// that usage reports read a few narrow rows instead of scanning every event (a 500 MB corpus:
// ~32,000 calls among ~280,000 events). Refreshed whenever a session is re-summarised.
//
// The choice is the summarisers' rule (src/usage/calls.ts documents it): per session and usage
// key, the record with the largest total; on a tie the earlier one (no time first, then time,
// then sequence).

import type Database from 'better-sqlite3';
import type { Format } from '../../core/model.js';
import type { UsageCallGroupRow, UsageSessionRow } from '../store.js';

/** A JSON value as a number: numbers as they are, numeric text converted, anything else NULL. */
const NUMBER = (v: string) =>
  `(CASE typeof(${v}) WHEN 'integer' THEN ${v} WHEN 'real' THEN ${v} WHEN 'text' THEN (CASE WHEN trim(${v}) <> '' AND trim(${v}) NOT GLOB '*[^0-9.eE+-]*' THEN CAST(trim(${v}) AS REAL) END) END)`;

/** Rows of the chosen calls; `where` narrows the events (e.g. `sid = ?`). */
export function chosenCallsSelect(where: string): string {
  return `SELECT sid, ts_ms, ts_ns, seq, model, tok_in, tok_out, tok_cw, tok_cw1h, tok_cr, cost FROM (
  SELECT sid, ts_ms, ifnull(ts_ns, 0) AS ts_ns, seq, model, tok_in, ifnull(tok_out, 0) AS tok_out, ifnull(tok_cw, 0) AS tok_cw,
    ifnull(${NUMBER("json_extract(attrs, '$.cacheWrite1h')")}, 0) AS tok_cw1h, ifnull(tok_cr, 0) AS tok_cr, ${NUMBER("json_extract(attrs, '$.costUsd')")} AS cost,
    row_number() OVER (
      PARTITION BY sid, ifnull(usage_key, ifnull(message_id, 'null') || ':' || ifnull(request_id, 'null'))
      ORDER BY tok_in + ifnull(tok_out, 0) + ifnull(tok_cw, 0) + ifnull(tok_cr, 0) DESC, ts_ms IS NOT NULL, ts_ms, ifnull(ts_ns, 0), seq
    ) AS pick
  FROM events WHERE tok_in IS NOT NULL AND ${where}
) WHERE pick = 1`;
}

export const USAGE_CALLS_TABLE = `CREATE TABLE usage_calls (
  sid INTEGER NOT NULL,
  ts_ms INTEGER,
  ts_ns INTEGER NOT NULL,
  seq INTEGER NOT NULL,
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

const INSERT = (where: string) =>
  `INSERT INTO usage_calls (sid, ts_ms, ts_ns, seq, model, tok_in, tok_out, tok_cw, tok_cw1h, tok_cr, cost) ${chosenCallsSelect(where)}`;

/** Fill usage_calls for every session (the migration that adds it). */
export const FILL_USAGE_CALLS = `${INSERT('1')};`;

/** Recompute the calls of these sessions (after their events changed). */
export function refreshUsageCalls(db: Database.Database, sids: readonly number[]): void {
  const del = db.prepare('DELETE FROM usage_calls WHERE sid = ?');
  const ins = db.prepare(INSERT('sid = ?'));
  for (const sid of sids) {
    del.run(sid);
    ins.run(sid);
  }
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
       count(*), min(ts_ms), max(ts_ms), sum(tok_in), sum(tok_out), sum(tok_cw), sum(tok_cr), sum(tok_cw1h), sum(cost)
       FROM usage_calls GROUP BY 1, 2, 3, 4, 5`,
    )
    .raw(true)
    .all(threshold) as unknown[][];
  const groups: UsageCallGroupRow[] = [];
  for (const g of grouped) {
    // Entries of no session (sid 0) have no session row: no report counts them.
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
      recordedUsd: g[4] === 1 ? (g[13] as number) : null,
    });
  }
  return { sessions, groups };
}
