// The usage_calls table: each session's LLM calls, one narrow row per call as its summariser chose
// them (src/core/llm-calls.ts), written with the session's summary, so usage reports read a few
// grouped rows instead of scanning every event (a 500 MB corpus: ~32,000 calls among ~280,000
// events). Beside them, usage_call_days: the same calls summed per session and UTC day (model,
// long-context side, recorded cost), written with them, so a report reads ~3,000 rows of a 1 GB
// store instead of grouping ~65,000 calls on every call. The engine only stores and reads; each
// engine's migrations create the tables.

import type { LlmCall } from '../../core/events.js';
import type { Format } from '../../core/model.js';
import { keyToParts } from '../../core/time.js';
import type { ProjectScope, UsageCallGroupRow, UsageCallRow, UsageSessionRow } from '../store.js';
import { projectInScope, sidInScope } from './project-scope.js';
import { RowList, type Sql } from './sql.js';

/**
 * The long-context threshold usage_call_days is cut at: the price table's (LONG_CONTEXT_THRESHOLD in
 * src/usage/price-types.ts, which this layer cannot import; a test holds them equal). A report asking
 * for another threshold groups usage_calls itself.
 */
export const DAYS_THRESHOLD = 200_000;

/** The columns of usage_call_days, in the order groupedCalls selects them. */
export const DAY_COLUMNS = 'sid, day, model, long_ctx, has_cost, calls, first_ms, last_ms, tok_in, tok_out, tok_cw, tok_cr, tok_cw1h, cost, tok_rs';

/**
 * usage_calls summed per session, UTC day, model, long-context side and recorded-cost presence, in
 * DAY_COLUMNS order: what usage_call_days holds, and what a report reads. Integer division
 * truncates toward zero on both engines: the same UTC days. `threshold` is a `$n` or a number.
 */
export function groupedCalls(floatSum: (expr: string) => string, threshold: string, where = ''): string {
  return `SELECT sid, ts_ms / 86400000 AS day, model, tok_in + tok_cw + tok_cr > ${threshold} AS long_ctx, cost IS NOT NULL AS has_cost,
     count(*), min(ts_ms), max(ts_ms), sum(tok_in), sum(tok_out), sum(tok_cw), sum(tok_cr), ${floatSum('tok_cw1h')}, ${floatSum('cost')}, sum(tok_rs)
     FROM usage_calls ${where} GROUP BY 1, 2, 3, 4, 5`;
}

/** Replace the calls of these sessions, and their day groups. Call inside the transaction that saves their summaries. */
export async function writeUsageCalls(sql: Sql, bySession: readonly { sid: number; calls: readonly LlmCall[] }[]): Promise<void> {
  if (bySession.length === 0) return;
  const sids = bySession.map((s) => s.sid);
  const these = sql.dialect.inArray('sid', '$1', 'int');
  await sql.run(`DELETE FROM usage_calls WHERE ${these}`, [sids]);
  await sql.run(`DELETE FROM usage_call_days WHERE ${these}`, [sids]);
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
  await sql.run(`INSERT INTO usage_call_days (${DAY_COLUMNS}) ${groupedCalls(sql.dialect.floatSum, String(DAYS_THRESHOLD), `WHERE ${these}`)}`, [sids]);
}

/** Keys of the stored calls of these sessions: mirrors, or first-hand ones. */
export async function storedCallKeys(sql: Sql, sids: readonly number[], mirror: boolean): Promise<Set<string>> {
  const rows = await sql.arrays(`SELECT call_key FROM usage_calls WHERE ${sql.dialect.inArray('sid', '$1', 'int')} AND mirror = $2`, [sids, mirror ? 1 : 0]);
  return new Set(rows.map((r) => r[0] as string));
}

/**
 * Every session, and the chosen calls summed per session, UTC day, model, long-context side and
 * recorded-cost presence (Store.usageCallGroups): ~32,000 calls of a 500 MB corpus come back as
 * ~1,600 rows. Integer division truncates toward zero on both engines: the same UTC days.
 */
export async function readUsageCallGroups(
  sql: Sql,
  threshold: number,
  projects?: ProjectScope,
): Promise<{ sessions: UsageSessionRow[]; groups: UsageCallGroupRow[] }> {
  const { sessions, idOf, scoped, callsWhere } = await readUsageSessions(sql, projects);
  // The groups kept beside the calls (a few thousand rows) instead of grouping every call again.
  const grouped =
    threshold === DAYS_THRESHOLD
      ? await sql.arrays(`SELECT ${DAY_COLUMNS} FROM usage_call_days ${callsWhere}`, scoped)
      : await sql.arrays(groupedCalls(sql.dialect.floatSum, `$${scoped.length + 1}`, callsWhere), [...scoped, threshold]);
  const groups: UsageCallGroupRow[] = [];
  for (const g of grouped) {
    // Rows of a session no longer listed have no session row: no report counts them.
    const sessionId = idOf.get(g[0] as number);
    if (sessionId === undefined) continue;
    groups.push({
      sessionId,
      model: g[2] as string | null,
      long: g[3] === 1 || g[3] === true,
      calls: g[5] as number,
      firstMs: g[6] as number | null,
      lastMs: g[7] as number | null,
      input: g[8] as number,
      output: g[9] as number,
      cacheWrite: g[10] as number,
      cacheWrite1h: g[12] as number,
      cacheRead: g[11] as number,
      reasoning: g[14] as number,
      recordedUsd: g[4] === 1 || g[4] === true ? (g[13] as number) : null,
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
