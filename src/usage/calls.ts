// Every LLM call in the store, counted once, with its session, top-level session, time and tokens.
//
// Counting is the sessions' own rule (src/importers/claude-code/summarize.ts): events carry usage
// under a key; the events of one session sharing a key are one call, and the one with the largest
// total stands for it (the first in time wins a tie). So per-session sums here equal the stored
// session totals, which equal ccusage's.
//
// With a SqliteStore the calls come from one scan of the events that carry usage (a 500 MB corpus
// answers in about a second); any other Store is read session by session through sessionTimeline.
// Replace `loadUsageCalls` by a store method `usageCalls()` when the PostgreSQL engine lands.

import type Database from 'better-sqlite3';
import type { Format } from '../core/model.js';
import { keyToParts, partsToKey } from '../core/time.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import type { CallTokens } from './cost.js';

export interface UsageCall {
  sessionId: string;
  /** The top-level session above it (itself when it has no parent): sub-agents bill their parent. */
  rootId: string;
  format: Format;
  /** Project of the top-level session (slug folder or plane root) and its real path. */
  project: string | null;
  projectPath: string | null;
  tsMs: number | null;
  tsKey: string | null;
  model: string | null;
  tokens: CallTokens;
  /** A cost the log recorded for this call (Amplifier `cost_usd`), when present. */
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

/** Each session's top-level ancestor (parent links are followed; a cycle stops at the repeat). */
function rootsOf(sessions: Map<string, SessionInfo>): Map<string, SessionInfo> {
  const roots = new Map<string, SessionInfo>();
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

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const parseUsd = (v: unknown): number | null => (typeof v === 'string' && v.trim() !== '' ? num(Number(v)) : num(v));

function makeCall(
  session: SessionInfo,
  root: SessionInfo,
  tsMs: number | null,
  tsNs: number,
  model: string | null,
  t: [number, number, number, number],
  cw1h: unknown,
  cost: unknown,
): UsageCall {
  return {
    sessionId: session.id,
    rootId: root.id,
    format: root.format,
    project: root.project,
    projectPath: root.projectPath,
    tsMs,
    tsKey: tsMs === null ? null : partsToKey(tsMs, tsNs),
    model,
    tokens: { input: t[0], output: t[1], cacheWrite: t[2], cacheWrite1h: num(cw1h) ?? 0, cacheRead: t[3] },
    recordedUsd: parseUsd(cost),
  };
}

function fromSqlite(db: Database.Database): UsageCall[] {
  const rows = db.prepare('SELECT sid, id, parent_id, project, project_path, format FROM sessions').raw(true).all() as unknown[][];
  const bySid = new Map<number, SessionInfo>();
  const byId = new Map<string, SessionInfo>();
  for (const r of rows) {
    const s: SessionInfo = {
      id: r[1] as string,
      parentId: r[2] as string | null,
      project: r[3] as string | null,
      projectPath: r[4] as string | null,
      format: r[5] as Format,
    };
    bySid.set(r[0] as number, s);
    byId.set(s.id, s);
  }
  const roots = rootsOf(byId);
  const chooser = new Chooser();
  const events = db
    .prepare(
      `SELECT sid, seq, ts_ms, ts_ns, usage_key, message_id, request_id, model, tok_in, tok_out, tok_cw, tok_cr,
       json_extract(attrs, '$.cacheWrite1h'), json_extract(attrs, '$.costUsd') FROM events WHERE tok_in IS NOT NULL`,
    )
    .raw(true);
  for (const r of events.iterate() as Iterable<unknown[]>) {
    const session = bySid.get(r[0] as number);
    if (!session) continue;
    const t: [number, number, number, number] = [r[8] as number, (r[9] as number | null) ?? 0, (r[10] as number | null) ?? 0, (r[11] as number | null) ?? 0];
    const tsNs = (r[3] as number | null) ?? 0;
    // Stored NULL when the key is message:request (see session-events.ts).
    const key = (r[4] as string | null) ?? `${r[5] as string}:${r[6] as string}`;
    const call = makeCall(session, roots.get(session.id)!, r[2] as number | null, tsNs, r[7] as string | null, t, r[12], r[13]);
    chooser.add(r[0] as number, key, { call, total: t[0] + t[1] + t[2] + t[3], tsNs, order: r[1] as number });
  }
  return chooser.calls();
}

async function fromStore(store: Store): Promise<UsageCall[]> {
  const sessions = new Map<string, SessionInfo>();
  for (let offset = 0; ; offset += 500) {
    const page = await store.listSessions({ limit: 500, offset });
    for (const s of page.sessions) sessions.set(s.id, { id: s.id, parentId: s.parentId, project: s.project, projectPath: s.projectPath, format: s.format });
    if (page.sessions.length < 500) break;
  }
  const roots = rootsOf(sessions);
  const chooser = new Chooser();
  for (const s of [...sessions.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const { events } = await store.sessionTimeline(s.id, { offset: 0, limit: Number.MAX_SAFE_INTEGER, descendants: false });
    events.forEach((e, order) => {
      if (!e.usage) return;
      const u = e.usage;
      const [tsMs, tsNs] = e.tsKey === null ? [null, 0] : keyToParts(e.tsKey);
      const t: [number, number, number, number] = [u.input, u.output, u.cacheWrite, u.cacheRead];
      const call = makeCall(s, roots.get(s.id)!, tsMs, tsNs, u.model, t, e.attrs.cacheWrite1h, e.attrs.costUsd);
      chooser.add(s.id, u.key, { call, total: t[0] + t[1] + t[2] + t[3], tsNs, order });
    });
  }
  return chooser.calls();
}

/** Every LLM call of the store, each counted once. */
export async function loadUsageCalls(store: Store): Promise<UsageCall[]> {
  return store instanceof SqliteStore ? fromSqlite(store.db) : fromStore(store);
}
