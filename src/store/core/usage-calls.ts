// The usage_calls table: each session's LLM calls, one narrow row per call as its summariser chose
// them (src/core/llm-calls.ts), written with the session's summary, so usage reports read a few
// grouped rows instead of scanning every event (a 500 MB corpus: ~32,000 calls among ~280,000
// events). Beside them, two tables of the same calls summed, written with them: usage_call_days per
// session and UTC day (model, long-context side, recorded cost), so a report reads ~3,000 rows of a
// 1 GB store instead of grouping ~65,000 calls on every call; and usage_call_hours per session and
// UTC hour, the hour's first instant apart, which is all the 5-hour blocks need to tell where a call
// falls (src/usage/blocks.ts says why). The engine only stores and reads; each engine's migrations
// create the tables.

import type { LlmCall } from '../../core/events.js';
import type { Format } from '../../core/model.js';
import { keyToParts } from '../../core/time.js';
import type { ProjectScope, UsageCallGroupRow, UsageCallRow, UsageSessionRow } from '../store.js';
import { projectInScope, sidInScope } from './project-scope.js';
import { RowList, type Sql } from './sql.js';

/**
 * The long-context threshold usage_call_days and usage_call_hours are cut at: the price table's
 * (LONG_CONTEXT_THRESHOLD in src/usage/price-types.ts, which this layer cannot import; a test holds
 * them equal). A report asking for another threshold groups usage_calls itself.
 */
export const DAYS_THRESHOLD = 200_000;

/** How a table of grouped calls cuts time: by UTC day, or by UTC hour with the hour's first millisecond apart. */
export type CallCut = 'day' | 'hour';

const HOUR_MS = 3_600_000;

/**
 * The columns that cut time, per cut. Days: integer division truncates toward zero on both engines
 * (the same UTC days). Hours: the hour's start, floored (also before 1970, where truncation would put
 * two hours in one), and whether the call is at that very millisecond: a window that opened 5 hours
 * earlier still takes such a call and no other of its hour.
 */
const CUT_KEYS: Record<CallCut, { select: string; columns: string; count: number }> = {
  day: { select: 'ts_ms / 86400000 AS day', columns: 'day', count: 1 },
  hour: {
    select: `ts_ms - ((ts_ms % ${HOUR_MS}) + ${HOUR_MS}) % ${HOUR_MS} AS hour_ms, ts_ms % ${HOUR_MS} = 0 AS on_hour`,
    columns: 'hour_ms, on_hour',
    count: 2,
  },
};

const SUMMED_COLUMNS = 'model, long_ctx, has_cost, calls, first_ms, last_ms, tok_in, tok_out, tok_cw, tok_cr, tok_cw1h, cost, tok_rs';

/** The columns of a grouped-calls table, in the order groupedCalls selects them. */
export const groupColumns = (cut: CallCut): string => `sid, ${CUT_KEYS[cut].columns}, ${SUMMED_COLUMNS}`;

/** The columns of usage_call_days, in the order groupedCalls selects them. */
export const DAY_COLUMNS = groupColumns('day');

/** The table that keeps the calls grouped by `cut`. */
export const groupTable = (cut: CallCut): string => (cut === 'day' ? 'usage_call_days' : 'usage_call_hours');

/**
 * usage_calls summed per session, time cut (UTC day, or UTC hour and its first millisecond), model,
 * long-context side and recorded-cost presence, in groupColumns(cut) order: what usage_call_days and
 * usage_call_hours hold, and what a report reads. `threshold` is a `$n` or a number.
 */
export function groupedCalls(floatSum: (expr: string) => string, threshold: string, where = '', cut: CallCut = 'day'): string {
  const keys = CUT_KEYS[cut];
  // The key columns by position: sid, the cut's, model, long_ctx, has_cost.
  const by = Array.from({ length: keys.count + 4 }, (_, i) => i + 1).join(', ');
  return `SELECT sid, ${keys.select}, model, tok_in + tok_cw + tok_cr > ${threshold} AS long_ctx, cost IS NOT NULL AS has_cost,
     count(*), min(ts_ms), max(ts_ms), sum(tok_in), sum(tok_out), sum(tok_cw), sum(tok_cr), ${floatSum('tok_cw1h')}, ${floatSum('cost')}, sum(tok_rs)
     FROM usage_calls ${where} GROUP BY ${by}`;
}

const CUTS: readonly CallCut[] = ['day', 'hour'];

/** The statement that fills a grouped-calls table from usage_calls (`where` cuts the calls; none: every one). */
export function fillGroups(sql: Pick<Sql, 'dialect'>, cut: CallCut, where = ''): string {
  return `INSERT INTO ${groupTable(cut)} (${groupColumns(cut)}) ${groupedCalls(sql.dialect.floatSum, String(DAYS_THRESHOLD), where, cut)}`;
}

/** Replace the calls of these sessions, and their day and hour groups. Call inside the transaction that saves their summaries. */
export async function writeUsageCalls(sql: Sql, bySession: readonly { sid: number; calls: readonly LlmCall[] }[]): Promise<void> {
  if (bySession.length === 0) return;
  const sids = bySession.map((s) => s.sid);
  const these = sql.dialect.inArray('sid', '$1', 'int');
  await sql.run(`DELETE FROM usage_calls WHERE ${these}`, [sids]);
  for (const cut of CUTS) await sql.run(`DELETE FROM ${groupTable(cut)} WHERE ${these}`, [sids]);
  const rows = bySession.flatMap((s) =>
    s.calls.map((c) => {
      const [ms, ns] = c.tsKey === null ? [null, 0] : keyToParts(c.tsKey);
      return [s.sid, c.seq, c.key, c.mirror ? 1 : 0, ms, ns, c.model, c.input, c.output, c.cacheWrite, c.cacheWrite1h, c.cacheRead, c.costUsd, c.reasoning ?? 0];
    }),
  );
  if (rows.length === 0) return;
  await sql.run(
    `INSERT INTO usage_calls (sid, seq, call_key, mirror, ts_ms, ts_ns, model, tok_in, tok_out, tok_cw, tok_cw1h, tok_cr, cost, tok_rs)
     SELECT sid, seq, call_key, mirror, ts_ms, ts_ns, model, tok_in, tok_out, tok_cw, tok_cw1h, tok_cr, cost, tok_rs
     FROM ${sql.dialect.rows('$1', 'c', [
       ['sid', 'int'], ['seq', 'int'], ['call_key', 'text'], ['mirror', 'smallint'], ['ts_ms', 'bigint'], ['ts_ns', 'int'], ['model', 'text'],
       ['tok_in', 'bigint'], ['tok_out', 'bigint'], ['tok_cw', 'bigint'], ['tok_cw1h', 'float8'], ['tok_cr', 'bigint'], ['cost', 'float8'], ['tok_rs', 'bigint'],
     ])} ORDER BY n`,
    [new RowList(rows)],
  );
  // Summed by the engine from the rows just written, as a report used to sum them on every call.
  for (const cut of CUTS) await sql.run(fillGroups(sql, cut, `WHERE ${these}`), [sids]);
}

/** Keys of the stored calls of these sessions: mirrors, or first-hand ones. */
export async function storedCallKeys(sql: Sql, sids: readonly number[], mirror: boolean): Promise<Set<string>> {
  const rows = await sql.arrays(`SELECT call_key FROM usage_calls WHERE ${sql.dialect.inArray('sid', '$1', 'int')} AND mirror = $2`, [sids, mirror ? 1 : 0]);
  return new Set(rows.map((r) => r[0] as string));
}

/**
 * Every session, and the chosen calls summed per session, `cut` (UTC day, or UTC hour with its first
 * millisecond apart), model, long-context side and recorded-cost presence (Store.usageCallGroups,
 * Store.usageCallHours): ~32,000 calls of a 500 MB corpus come back as ~1,600 day rows.
 */
export async function readUsageCallGroups(
  sql: Sql,
  threshold: number,
  projects?: ProjectScope,
  cut: CallCut = 'day',
): Promise<{ sessions: UsageSessionRow[]; groups: UsageCallGroupRow[] }> {
  const { sessions, idOf, scoped, callsWhere } = await readUsageSessions(sql, projects);
  // The groups kept beside the calls (a few thousand rows) instead of grouping every call again.
  const grouped =
    threshold === DAYS_THRESHOLD
      ? await sql.arrays(`SELECT ${groupColumns(cut)} FROM ${groupTable(cut)} ${callsWhere}`, scoped)
      : await sql.arrays(groupedCalls(sql.dialect.floatSum, `$${scoped.length + 1}`, callsWhere, cut), [...scoped, threshold]);
  // The summed columns come after the cut's keys.
  const k = CUT_KEYS[cut].count;
  const groups: UsageCallGroupRow[] = [];
  for (const g of grouped) {
    // Rows of a session no longer listed have no session row: no report counts them.
    const sessionId = idOf.get(g[0] as number);
    if (sessionId === undefined) continue;
    groups.push({
      sessionId,
      model: g[k + 1] as string | null,
      long: g[k + 2] === 1 || g[k + 2] === true,
      calls: g[k + 4] as number,
      firstMs: g[k + 5] as number | null,
      lastMs: g[k + 6] as number | null,
      input: g[k + 7] as number,
      output: g[k + 8] as number,
      cacheWrite: g[k + 9] as number,
      cacheWrite1h: g[k + 11] as number,
      cacheRead: g[k + 10] as number,
      reasoning: g[k + 13] as number,
      recordedUsd: g[k + 3] === 1 || g[k + 3] === true ? (g[k + 12] as number) : null,
    });
  }
  return { sessions, groups };
}

/**
 * Every session as usage reports need it (or a scope's: its projects are $1 of each statement), each
 * session's id by its row id, and the condition that cuts a calls table to those sessions.
 */
async function readUsageSessions(
  sql: Sql,
  projects?: ProjectScope,
): Promise<{ sessions: UsageSessionRow[]; idOf: Map<number, string>; scoped: unknown[]; callsWhere: string }> {
  const scoped = projects === undefined ? [] : [projects];
  const sessionsWhere = projects === undefined ? '' : `WHERE ${projectInScope(sql, 'project', '$1')}`;
  const callsWhere = projects === undefined ? '' : `WHERE ${sidInScope(sql, 'sid', '$1')}`;
  const rows = await sql.arrays(`SELECT sid, id, parent_id, project, project_path, format FROM sessions ${sessionsWhere}`, scoped);
  const idOf = new Map(rows.map((r) => [r[0] as number, r[1] as string]));
  const sessions = rows.map((r) => ({ id: r[1] as string, parentId: r[2] as string | null, project: r[3] as string | null, projectPath: r[4] as string | null, format: r[5] as Format }));
  return { sessions, idOf, scoped, callsWhere };
}

/**
 * Every session, and every stored call one by one (Store.usageCallRows): the rows the summarisers
 * chose, mirrors included, as the sessions' timelines hold them (a mirror whose call a sub-agent
 * records first-hand had its usage cleared, so neither counts it). ~19,000 narrow rows for a
 * 300 MB corpus instead of every event of every session.
 */
export async function readUsageCallRows(sql: Sql, projects?: ProjectScope): Promise<{ sessions: UsageSessionRow[]; calls: UsageCallRow[] }> {
  const { sessions, idOf, scoped, callsWhere } = await readUsageSessions(sql, projects);
  const rows = await sql.arrays(`SELECT sid, seq, ts_ms, ts_ns, model, tok_in, tok_out, tok_cw, tok_cw1h, tok_cr, cost, tok_rs FROM usage_calls ${callsWhere}`, scoped);
  const calls: UsageCallRow[] = [];
  for (const r of rows) {
    // Rows of a session no longer listed have no session row: no report counts them.
    const sessionId = idOf.get(r[0] as number);
    if (sessionId === undefined) continue;
    calls.push({
      sessionId,
      seq: r[1] as number,
      tsMs: r[2] as number | null,
      tsNs: r[3] as number,
      model: r[4] as string | null,
      input: r[5] as number,
      output: r[6] as number,
      cacheWrite: r[7] as number,
      cacheWrite1h: r[8] as number,
      cacheRead: r[9] as number,
      recordedUsd: r[10] as number | null,
      reasoning: r[11] as number,
    });
  }
  return { sessions, calls };
}
