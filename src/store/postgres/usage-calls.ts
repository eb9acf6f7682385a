// The usage_calls table on PostgreSQL: each session's LLM calls, one narrow row per call as its
// summariser chose them (src/core/llm-calls.ts), written with the session's summary, so usage
// reports read a few grouped rows instead of every event. The engine only stores and reads.

import type { LlmCall } from '../../core/events.js';
import type { Format } from '../../core/model.js';
import { keyToParts } from '../../core/time.js';
import { pgText } from './bulk-inserts.js';
import type { UsageCallGroupRow, UsageSessionRow } from '../store.js';
import type { Queryable } from './query.js';

/**
 * sum() as SQLite computes it over REAL values (Kahan-Babuska-Neumaier: a running sum and its
 * compensated error, added at the end unless the error overflowed), so grouped costs are the same
 * doubles on both engines; a plain float sum differs from it in the last digit.
 */
export const SQLITE_SUM = `CREATE FUNCTION sqlite_sum_step(st double precision[], r double precision) RETURNS double precision[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
  SELECT ARRAY[st[1] + r, st[2] + CASE WHEN abs(st[1]) > abs(r) THEN (st[1] - (st[1] + r)) + r ELSE (r - (st[1] + r)) + st[1] END, st[3] + 1]
$fn$;
CREATE FUNCTION sqlite_sum_final(st double precision[]) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN st[3] = 0 THEN NULL WHEN st[2] IN ('Infinity', '-Infinity', 'NaN') THEN st[1] ELSE st[1] + st[2] END
$fn$;
CREATE AGGREGATE sqlite_sum(double precision) (SFUNC = sqlite_sum_step, STYPE = double precision[], FINALFUNC = sqlite_sum_final, INITCOND = '{0,0,0}');`;

/** The table as migration 3 created it (migrations.ts); migration 4 adds tok_rs (USAGE_CALLS_REASONING). */
export const USAGE_CALLS_TABLE = `CREATE TABLE usage_calls (
  sid integer NOT NULL,
  seq integer NOT NULL,
  call_key text COLLATE "C" NOT NULL,
  -- 1: a copy of another session's call (LlmCall.mirror)
  mirror smallint NOT NULL,
  ts_ms bigint,
  ts_ns integer NOT NULL,
  model text COLLATE "C",
  tok_in bigint NOT NULL,
  tok_out bigint NOT NULL,
  tok_cw bigint NOT NULL,
  -- double: SQLite keeps a non-integral value in its INTEGER column as it is
  tok_cw1h double precision NOT NULL,
  tok_cr bigint NOT NULL,
  -- a cost the log recorded (Amplifier cost_usd), NULL when none
  cost double precision
);
CREATE INDEX usage_calls_sid ON usage_calls(sid);`;

/** Migration 4: the calls' output-priced tokens outside output (LlmCall.reasoning), 0 for rows before it. */
export const USAGE_CALLS_REASONING = 'ALTER TABLE usage_calls ADD COLUMN tok_rs bigint NOT NULL DEFAULT 0;';

/** Replace the calls of these sessions. Call inside the transaction that saves their summaries. */
export async function writeUsageCalls(db: Queryable, bySession: readonly { sid: number; calls: readonly LlmCall[] }[]): Promise<void> {
  if (bySession.length === 0) return;
  await db.query('DELETE FROM usage_calls WHERE sid = ANY($1::int[])', [bySession.map((s) => s.sid)]);
  const rows = bySession.flatMap((s) => s.calls.map((c) => ({ sid: s.sid, c, parts: c.tsKey === null ? null : keyToParts(c.tsKey) })));
  if (rows.length === 0) return;
  const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
  await db.query(
    `INSERT INTO usage_calls (sid, seq, call_key, mirror, ts_ms, ts_ns, model, tok_in, tok_out, tok_cw, tok_cw1h, tok_cr, cost, tok_rs)
     SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::smallint[], $5::bigint[], $6::int[], $7::text[], $8::bigint[], $9::bigint[],
       $10::bigint[], $11::float8[], $12::bigint[], $13::float8[], $14::bigint[])`,
    [
      col((r) => r.sid),
      col((r) => r.c.seq),
      col((r) => pgText(r.c.key)),
      col((r) => (r.c.mirror ? 1 : 0)),
      col((r) => r.parts?.[0] ?? null),
      col((r) => r.parts?.[1] ?? 0),
      col((r) => pgText(r.c.model)),
      col((r) => r.c.input),
      col((r) => r.c.output),
      col((r) => r.c.cacheWrite),
      col((r) => r.c.cacheWrite1h),
      col((r) => r.c.cacheRead),
      col((r) => r.c.costUsd),
      col((r) => r.c.reasoning ?? 0),
    ],
  );
}

/** Keys of the stored calls of these sessions: mirrors, or first-hand ones. */
export async function storedCallKeys(db: Queryable, sids: readonly number[], mirror: boolean): Promise<Set<string>> {
  const { rows } = await db.query<{ call_key: string }>('SELECT call_key FROM usage_calls WHERE sid = ANY($1::int[]) AND mirror = $2', [sids, mirror ? 1 : 0]);
  return new Set(rows.map((r) => r.call_key));
}

interface GroupRowDb {
  sid: number;
  model: string | null;
  long: boolean;
  has_cost: boolean;
  calls: number;
  first_ms: number | null;
  last_ms: number | null;
  input: number;
  output: number;
  cw: number;
  cw1h: number;
  cr: number;
  rs: number;
  cost: number | null;
}

/** Every session, and the calls summed per session, UTC day, model, long-context side and recorded-cost presence. */
export async function readUsageCallGroups(db: Queryable, threshold: number): Promise<{ sessions: UsageSessionRow[]; groups: UsageCallGroupRow[] }> {
  const { rows } = await db.query<{ sid: number; id: string; parent_id: string | null; project: string | null; project_path: string | null; format: Format }>(
    'SELECT sid, id, parent_id, project, project_path, format FROM sessions',
  );
  const idOf = new Map(rows.map((r) => [r.sid, r.id]));
  const sessions = rows.map((r) => ({ id: r.id, parentId: r.parent_id, project: r.project, projectPath: r.project_path, format: r.format }));
  // Integer division truncates toward zero, as SQLite's: the same UTC days; doubles are summed as SQLite sums them.
  const { rows: grouped } = await db.query<GroupRowDb>(
    `SELECT sid, model, tok_in + tok_cw + tok_cr > $1::bigint AS long, cost IS NOT NULL AS has_cost, count(*) AS calls,
     min(ts_ms) AS first_ms, max(ts_ms) AS last_ms, sum(tok_in) AS input, sum(tok_out) AS output, sum(tok_cw) AS cw,
     sqlite_sum(tok_cw1h) AS cw1h, sum(tok_cr) AS cr, sum(tok_rs) AS rs, sqlite_sum(cost) AS cost
     FROM usage_calls GROUP BY sid, ts_ms / 86400000, model, 3, 4`,
    [threshold],
  );
  const groups: UsageCallGroupRow[] = [];
  for (const g of grouped) {
    // Rows of a session no longer listed have no session row: no report counts them.
    const sessionId = idOf.get(g.sid);
    if (sessionId === undefined) continue;
    groups.push({
      sessionId,
      model: g.model,
      long: g.long,
      calls: g.calls,
      firstMs: g.first_ms,
      lastMs: g.last_ms,
      input: g.input,
      output: g.output,
      cacheWrite: g.cw,
      cacheWrite1h: g.cw1h,
      cacheRead: g.cr,
      reasoning: g.rs,
      recordedUsd: g.has_cost ? g.cost : null,
    });
  }
  return { sessions, groups };
}
