// The usage_calls table on PostgreSQL: each session's LLM calls, one narrow row per call, refreshed
// whenever a session is re-summarised, so usage reports read a few grouped rows instead of every event.
//
// Same rows as sqlite/usage-calls.ts: per session and usage key the record with the largest total,
// on a tie the earlier one (no time first, then time, then sequence); cacheWrite1h and costUsd are
// read from attrs as SQLite's json_extract + CAST read them (sqlite_number below).

import type { Format } from '../../core/model.js';
import type { UsageCallGroupRow, UsageSessionRow } from '../store.js';
import type { Queryable } from './query.js';

/**
 * A JSON value as SQLite's usage_calls reads it: numbers as they are, true/false as 1/0, text of
 * digits, dots, signs and exponents as CAST(text AS REAL) does (its longest numeric prefix, 0 when
 * there is none, infinity past the largest double), anything else NULL.
 */
const SQLITE_NUMBER = `CREATE FUNCTION sqlite_number(v json) RETURNS double precision
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
DECLARE
  s text;
  p text;
BEGIN
  CASE json_typeof(v)
    WHEN 'number' THEN RETURN (v #>> '{}')::double precision;
    WHEN 'boolean' THEN RETURN CASE WHEN v::text = 'true' THEN 1 ELSE 0 END;
    WHEN 'string' THEN
      s := btrim(v #>> '{}', ' ');
      IF s = '' OR s ~ '[^0-9.eE+-]' THEN RETURN NULL; END IF;
      p := substring(s FROM '^[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?');
      IF p IS NULL THEN RETURN CASE WHEN s LIKE '-%' THEN '-0'::double precision ELSE 0 END; END IF;
      BEGIN
        RETURN p::double precision;
      EXCEPTION WHEN numeric_value_out_of_range THEN
        IF p ~ '[eE]-' THEN RETURN CASE WHEN p LIKE '-%' THEN '-0'::double precision ELSE 0 END; END IF;
        RETURN CASE WHEN p LIKE '-%' THEN '-Infinity'::double precision ELSE 'Infinity'::double precision END;
      END;
    ELSE RETURN NULL;
  END CASE;
END
$fn$;`;

/**
 * attrs as json. PostgreSQL refuses to read any member of a json value holding an escaped NUL
 * (\\u0000 cannot become text), so it is read as U+FFFD: the same length of escape, so the JSON
 * stays valid, and such a string is not a number on either engine.
 */
export const ATTRS_JSON = "replace(attrs, '\\u0000', '\\ufffd')::json";

/**
 * sum() as SQLite computes it over REAL values (Kahan-Babuska-Neumaier: a running sum and its
 * compensated error, added at the end unless the error overflowed), so grouped costs are the same
 * doubles on both engines; a plain float sum differs from it in the last digit.
 */
const SQLITE_SUM = `CREATE FUNCTION sqlite_sum_step(st double precision[], r double precision) RETURNS double precision[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
  SELECT ARRAY[st[1] + r, st[2] + CASE WHEN abs(st[1]) > abs(r) THEN (st[1] - (st[1] + r)) + r ELSE (r - (st[1] + r)) + st[1] END, st[3] + 1]
$fn$;
CREATE FUNCTION sqlite_sum_final(st double precision[]) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN st[3] = 0 THEN NULL WHEN st[2] IN ('Infinity', '-Infinity', 'NaN') THEN st[1] ELSE st[1] + st[2] END
$fn$;
CREATE AGGREGATE sqlite_sum(double precision) (SFUNC = sqlite_sum_step, STYPE = double precision[], FINALFUNC = sqlite_sum_final, INITCOND = '{0,0,0}');`;

/** Rows of the chosen calls; `where` narrows the events (e.g. `sid = ANY($1::int[])`). */
export function chosenCallsSelect(where: string): string {
  return `SELECT sid, ts_ms, ts_ns, seq, model, tok_in, tok_out, tok_cw, tok_cw1h, tok_cr, cost FROM (
  SELECT sid, ts_ms, coalesce(ts_ns, 0) AS ts_ns, seq, model, tok_in, coalesce(tok_out, 0) AS tok_out, coalesce(tok_cw, 0) AS tok_cw,
    coalesce(sqlite_number(a -> 'cacheWrite1h'), 0) AS tok_cw1h, coalesce(tok_cr, 0) AS tok_cr, sqlite_number(a -> 'costUsd') AS cost,
    row_number() OVER (
      PARTITION BY sid, coalesce(usage_key, coalesce(message_id, 'null') || ':' || coalesce(request_id, 'null'))
      ORDER BY tok_in + coalesce(tok_out, 0) + coalesce(tok_cw, 0) + coalesce(tok_cr, 0) DESC, ts_ms IS NOT NULL, ts_ms, coalesce(ts_ns, 0), seq
    ) AS pick
  FROM (SELECT sid, seq, ts_ms, ts_ns, model, usage_key, message_id, request_id, tok_in, tok_out, tok_cw, tok_cr, ${ATTRS_JSON} AS a
    FROM events WHERE tok_in IS NOT NULL AND ${where}) e
) c WHERE pick = 1`;
}

const INSERT = (where: string) =>
  `INSERT INTO usage_calls (sid, ts_ms, ts_ns, seq, model, tok_in, tok_out, tok_cw, tok_cw1h, tok_cr, cost) ${chosenCallsSelect(where)}`;

/** The migration that adds the table (and fills it for stores written before it). */
export const USAGE_CALLS_MIGRATION = `${SQLITE_NUMBER}
${SQLITE_SUM}
CREATE TABLE usage_calls (
  sid integer NOT NULL,
  ts_ms bigint,
  ts_ns integer NOT NULL,
  seq integer NOT NULL,
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
CREATE INDEX usage_calls_sid ON usage_calls(sid);
${INSERT('true')};`;

/** Recompute the calls of these sessions (after their events changed); call inside the summaries' transaction. */
export async function refreshUsageCalls(db: Queryable, sids: readonly number[]): Promise<void> {
  if (sids.length === 0) return;
  await db.query('DELETE FROM usage_calls WHERE sid = ANY($1::int[])', [sids]);
  await db.query(INSERT('sid = ANY($1::int[])'), [sids]);
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
     sqlite_sum(tok_cw1h) AS cw1h, sum(tok_cr) AS cr, sqlite_sum(cost) AS cost
     FROM usage_calls GROUP BY sid, ts_ms / 86400000, model, 3, 4`,
    [threshold],
  );
  const groups: UsageCallGroupRow[] = [];
  for (const g of grouped) {
    // Entries of no session (sid 0) have no session row: no report counts them.
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
      recordedUsd: g.has_cost ? g.cost : null,
    });
  }
  return { sessions, groups };
}
