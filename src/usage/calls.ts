// Every LLM call in the store, counted once, with its session, top-level session, time and tokens.
//
// Counting is the sessions' own rule (src/formats/claude-code/summarize.ts): events carry usage
// under a key; the events of one session sharing a key are one call, and the one with the largest
// total stands for it (the first in time wins a tie). So per-session sums here equal the stored
// session totals, which equal ccusage's.
//
// A store with usageCallGroups (both engines: a usage_calls table kept by the writer with the same
// rule) hands the calls over already grouped per day, with usageCallHours per hour (for blocks),
// and with usageCallRows one by one; any other Store (a wrapper, a test double) is read session by
// session through sessionTimeline, with the same figures.

import { tokenTotal, type Format, type TokenCounts } from '../core/model.js';
import { keyToParts } from '../core/time.js';
import type { Store, UsageCallGroupRow, UsageCallRow, UsageSessionRow } from '../store/store.js';
import type { CallTokens } from './cost.js';
import { finiteNumber, recordedUsd } from './event-cost.js';
import { LONG_CONTEXT_THRESHOLD } from './pricing.js';
import { dayIn, DEFAULT_TIME_ZONE, isOffsetFree } from './time-zone.js';

/**
 * One LLM call, or (from Store.usageCallGroups) several calls of one session, UTC day, model, long-context side
 * and recorded-cost presence, summed: prices are linear within such a group, so the report's
 * figures are the same as call by call.
 */
export interface UsageCall {
  /** How many calls this stands for (1 for a single call). */
  calls: number;
  sessionId: string;
  /** The top-level session above it (itself when it has no parent): sub-agents bill their parent. */
  rootId: string;
  format: Format;
  /** Project of the top-level session (slug folder or plane root) and its real path. */
  project: string | null;
  projectPath: string | null;
  /** Time of the (first) call in milliseconds; null when it has none. */
  tsMs: number | null;
  /** Time of the last call of a group (= tsMs for one call). Milliseconds are all a report shows of a time. */
  lastMs: number | null;
  model: string | null;
  tokens: CallTokens;
  /** Whether the calls' prompts were over LONG_CONTEXT_THRESHOLD; null: decide from the tokens (one call). */
  long: boolean | null;
  /** A cost the log recorded for the call(s) (Amplifier `cost_usd`), when present. */
  recordedUsd: number | null;
}

interface SessionInfo {
  id: string;
  parentId: string | null;
  project: string | null;
  projectPath: string | null;
  format: Format;
}

interface Candidate {
  call: UsageCall;
  total: number;
  tsNs: number;
  order: number;
}

/** Keeps one candidate per (session, key): the largest total; on a tie the earlier one. */
class Chooser {
  private readonly chosen = new Map<string, Candidate>();
  add(sessionKey: string | number, usageKey: string, c: Candidate): void {
    const k = `${sessionKey}\u0000${usageKey}`;
    const prev = this.chosen.get(k);
    if (!prev || c.total > prev.total || (c.total === prev.total && earlier(c, prev))) this.chosen.set(k, c);
  }
  calls(): UsageCall[] {
    return [...this.chosen.values()].map((c) => c.call);
  }
}

function earlier(a: Candidate, b: Candidate): boolean {
  const am = a.call.tsMs;
  const bm = b.call.tsMs;
  if (am !== bm) return am === null ? true : bm === null ? false : am < bm;
  if (a.tsNs !== b.tsNs) return a.tsNs < b.tsNs;
  return a.order < b.order;
}

/**
 * Each session's top-level ancestor (parent links are followed; a cycle stops at the repeat), by
 * session id. Shared by every report that folds sub-agents into their parent.
 *
 * @example topLevelOf(new Map([['p', { id: 'p', parentId: null }], ['p:a', { id: 'p:a', parentId: 'p' }]])).get('p:a')!.id // 'p'
 */
export function topLevelOf<S extends { id: string; parentId: string | null }>(sessions: ReadonlyMap<string, S>): Map<string, S> {
  const roots = new Map<string, S>();
  for (const s of sessions.values()) {
    let cur = s;
    const seen = new Set<string>([s.id]);
    while (cur.parentId && sessions.has(cur.parentId) && !seen.has(cur.parentId)) {
      cur = sessions.get(cur.parentId)!;
      seen.add(cur.id);
    }
    roots.set(s.id, cur);
  }
  return roots;
}



function makeCall(
  session: SessionInfo,
  root: SessionInfo,
  tsMs: number | null,
  model: string | null,
  t: TokenCounts,
  cw1h: unknown,
  cost: unknown,
): UsageCall {
  return {
    calls: 1,
    sessionId: session.id,
    rootId: root.id,
    format: root.format,
    project: root.project,
    projectPath: root.projectPath,
    tsMs,
    lastMs: tsMs,
    long: null,
    model,
    tokens: { input: t.input, output: t.output, cacheWrite: t.cacheWrite, cacheWrite1h: finiteNumber(cw1h) ?? 0, cacheRead: t.cacheRead, reasoning: t.reasoning ?? 0 },
    recordedUsd: recordedUsd(cost),
  };
}

function cmp(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

/** The groups in one order whatever the engine's (sums of floats are then added in the same order). */
function compareGroups(a: UsageCallGroupRow, b: UsageCallGroupRow): number {
  return (
    cmp(a.sessionId, b.sessionId) ||
    (a.firstMs ?? -Infinity) - (b.firstMs ?? -Infinity) ||
    cmp(a.model, b.model) ||
    Number(a.long) - Number(b.long) ||
    Number(a.recordedUsd !== null) - Number(b.recordedUsd !== null)
  );
}

/**
 * By the first call's time, then compareGroups: the order blocks' stable sort by time puts
 * compareGroups' order into, made in one sort, so blocks find the groups sorted already.
 */
function compareGroupsByTime(a: UsageCallGroupRow, b: UsageCallGroupRow): number {
  return (a.firstMs ?? -Infinity) - (b.firstMs ?? -Infinity) || compareGroups(a, b);
}

function fromGroups(found: { sessions: UsageSessionRow[]; groups: UsageCallGroupRow[] }, order = compareGroups): UsageCall[] {
  const byId = new Map<string, SessionInfo>(found.sessions.map((s) => [s.id, s]));
  const roots = topLevelOf(byId);
  const calls: UsageCall[] = [];
  for (const g of [...found.groups].sort(order)) {
    const root = roots.get(g.sessionId);
    if (!root) continue;
    calls.push({
      calls: g.calls,
      sessionId: g.sessionId,
      rootId: root.id,
      format: root.format,
      project: root.project,
      projectPath: root.projectPath,
      tsMs: g.firstMs,
      lastMs: g.lastMs,
      long: g.long,
      model: g.model,
      tokens: { input: g.input, output: g.output, cacheWrite: g.cacheWrite, cacheWrite1h: g.cacheWrite1h, cacheRead: g.cacheRead, reasoning: g.reasoning },
      recordedUsd: g.recordedUsd,
    });
  }
  return calls;
}

/**
 * The timeline path's order as the stored rows can give it: sessions by id, then each session's
 * calls by time (none first), nanoseconds and sequence of the chosen record (the timeline path goes
 * by each call's first record, which precedes the chosen one within the same streamed call). Blocks
 * sort by millisecond and keep this order among calls of one millisecond, so their sums of floats
 * are added in the same order either way (a test holds the two paths equal on every format).
 */
function compareCallRows(a: UsageCallRow, b: UsageCallRow): number {
  if (a.sessionId !== b.sessionId) return a.sessionId < b.sessionId ? -1 : 1;
  if (a.tsMs !== b.tsMs) return a.tsMs === null ? -1 : b.tsMs === null ? 1 : a.tsMs - b.tsMs;
  return a.tsNs - b.tsNs || a.seq - b.seq;
}

/**
 * `rows` in compareCallRows order, sorted session by session: the rows come from the store a
 * session at a time and mostly in time order within one, so sorting the ~1,000 session ids and then
 * each session's calls (already in order: one pass) takes a fraction of the comparisons one sort of
 * all ~19,000 rows took. The order is the same: compareCallRows orders by session first, and both
 * sorts are stable.
 */
function inCallOrder(rows: readonly UsageCallRow[]): UsageCallRow[] {
  const bySession = new Map<string, UsageCallRow[]>();
  for (const r of rows) {
    const own = bySession.get(r.sessionId);
    if (own) own.push(r);
    else bySession.set(r.sessionId, [r]);
  }
  const ids = [...bySession.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return ids.flatMap((id) => bySession.get(id)!.sort(compareCallRows));
}

function fromRows(found: { sessions: UsageSessionRow[]; calls: UsageCallRow[] }): UsageCall[] {
  const byId = new Map<string, SessionInfo>(found.sessions.map((s) => [s.id, s]));
  const roots = topLevelOf(byId);
  const calls: UsageCall[] = [];
  for (const c of inCallOrder(found.calls)) {
    const root = roots.get(c.sessionId);
    if (!root) continue;
    calls.push({
      calls: 1,
      sessionId: c.sessionId,
      rootId: root.id,
      format: root.format,
      project: root.project,
      projectPath: root.projectPath,
      tsMs: c.tsMs,
      lastMs: c.tsMs,
      long: null,
      model: c.model,
      tokens: { input: c.input, output: c.output, cacheWrite: c.cacheWrite, cacheWrite1h: c.cacheWrite1h, cacheRead: c.cacheRead, reasoning: c.reasoning },
      recordedUsd: c.recordedUsd,
    });
  }
  return calls;
}

/** Read call by call; `only` limits the (slow) timeline reads to those sessions. */
async function fromStore(store: Store, only?: ReadonlySet<string>): Promise<UsageCall[]> {
  const sessions = new Map<string, SessionInfo>();
  for (let offset = 0; ; offset += 500) {
    const page = await store.listSessions({ limit: 500, offset });
    for (const s of page.sessions) sessions.set(s.id, { id: s.id, parentId: s.parentId, project: s.project, projectPath: s.projectPath, format: s.format });
    if (page.sessions.length < 500) break;
  }
  const roots = topLevelOf(sessions);
  const chooser = new Chooser();
  for (const s of [...sessions.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    if (only && !only.has(s.id)) continue;
    const { events } = await store.sessionTimeline(s.id, { offset: 0, limit: Number.MAX_SAFE_INTEGER, descendants: false });
    events.forEach((e, order) => {
      if (!e.usage) return;
      const u = e.usage;
      const [tsMs, tsNs] = e.tsKey === null ? [null, 0] : keyToParts(e.tsKey);
      const call = makeCall(s, roots.get(s.id)!, tsMs, u.model, u, e.attrs.cacheWrite1h, e.attrs.costUsd);
      chooser.add(s.id, u.key, { call, total: tokenTotal(u), tsNs, order });
    });
  }
  return chooser.calls();
}

/**
 * Every LLM call of the store one by one, each counted once and never summed with another: for
 * reports that need each call's own time (5-hour blocks, src/usage/blocks.ts). A store with
 * usageCallRows hands over its stored calls; any other is read session by session through
 * sessionTimeline (far slower on a large store), with the same calls.
 */
export async function loadEachUsageCall(store: Store): Promise<UsageCall[]> {
  return store.usageCallRows ? fromRows(await store.usageCallRows()) : fromStore(store);
}

/**
 * The calls 5-hour blocks are cut from (src/usage/blocks.ts): summed per session, UTC hour (the
 * hour's first millisecond apart), model and long-context side where the store keeps them so
 * (Store.usageCallHours), else each call alone (loadEachUsageCall). No such group straddles a
 * window's edge, so the windows are the same either way.
 */
export async function loadBlockCalls(store: Store): Promise<UsageCall[]> {
  return store.usageCallHours ? fromGroups(await store.usageCallHours(LONG_CONTEXT_THRESHOLD), compareGroupsByTime) : loadEachUsageCall(store);
}

/**
 * Every LLM call of the store, each counted once. The stored groups are cut at UTC midnight; for
 * another `timeZone`, a session with a group whose first and last calls fall on different days
 * there is read call by call instead, so each call lands on its own local day.
 */
export async function loadUsageCalls(store: Store, timeZone: string = DEFAULT_TIME_ZONE): Promise<UsageCall[]> {
  if (!store.usageCallGroups) return fromStore(store);
  const found = await store.usageCallGroups(LONG_CONTEXT_THRESHOLD);
  if (isOffsetFree(timeZone)) return fromGroups(found);
  const straddling = new Set(
    found.groups
      .filter((g) => g.firstMs !== null && g.lastMs !== null && dayIn(g.firstMs, timeZone) !== dayIn(g.lastMs, timeZone))
      .map((g) => g.sessionId),
  );
  if (!straddling.size) return fromGroups(found);
  const kept = fromGroups({ sessions: found.sessions, groups: found.groups.filter((g) => !straddling.has(g.sessionId)) });
  return [...kept, ...(await fromStore(store, straddling))];
}
