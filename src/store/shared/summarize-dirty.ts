// Re-summarising the sessions an ingest touched: one algorithm for both engines, over a small port
// of engine SQL. Children are summarised before their parents, and each parent's summariser is
// told which calls its children record first-hand, so a format that mirrors its sub-agents' calls
// (Claude Code's progress lines) drops the copies itself: the store never knows any format's rule.
// A parent that was not touched is summarised again when a child now records a call the parent
// holds only as a mirror.

import type { StoredEvent } from '../../core/events.js';
import { firstHandKeys, llmCalls } from '../../core/llm-calls.js';
import type { Format, SessionFacts } from '../../core/model.js';
import { depths } from '../../core/session-tree.js';
import type { SummaryOutput } from '../../formats/importer.js';
import type { Summarizer } from '../store.js';

/** A session to summarise, as the engine stores it. */
export interface SummaryTarget {
  sid: number;
  id: string;
  format: Format;
  facts: SessionFacts;
  rootId: number;
}

/** One summarised session, ready to write: the summary, the calls to keep and the usage to clear. */
export interface SummaryJob {
  target: SummaryTarget;
  out: SummaryOutput;
  calls: NonNullable<SummaryOutput['calls']>;
  dropUsage: number[];
}

/** What the algorithm needs of an engine. */
export interface SummaryPort {
  /** Every session's parent link. */
  sessionLinks(): Promise<{ sid: number; id: string; parentId: string | null }[]>;
  /** The sessions marked dirty. */
  dirtySessions(): Promise<SummaryTarget[]>;
  /** One session, to summarise although it was not marked dirty. */
  target(sid: number): Promise<SummaryTarget>;
  /** Every event of a session, in timeline order. */
  sessionEvents(target: SummaryTarget): Promise<StoredEvent[]>;
  /** Keys of the stored calls of these sessions, mirrors or first-hand ones. */
  callKeys(sids: number[], mirror: boolean): Promise<Set<string>>;
  /**
   * Write these jobs in one transaction (clearing each session's dirty flag); with `last`, also
   * roll the token totals up, so a crash never leaves totals no later run would recompute.
   */
  commit(jobs: SummaryJob[], last: boolean): Promise<void>;
}

/** Commit every ~5,000 events' worth of summaries: few transactions, bounded memory. */
const EVENTS_PER_COMMIT = 5000;

/** Summarise every dirty session (and the parents that must follow); returns how many. */
export async function summarizeDirty(port: SummaryPort, summarize: Summarizer): Promise<number> {
  const dirty = await port.dirtySessions();
  if (dirty.length === 0) return 0;
  const links = await port.sessionLinks();
  const sidOf = new Map(links.map((l) => [l.id, l.sid]));
  const parentOf = new Map<number, number>();
  const childrenOf = new Map<number, number[]>();
  for (const l of links) {
    const parent = l.parentId === null ? undefined : sidOf.get(l.parentId);
    if (parent === undefined || parent === l.sid) continue;
    parentOf.set(l.sid, parent);
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), l.sid]);
  }
  const depthById = depths(links);
  const depthOf = (t: SummaryTarget) => depthById.get(t.id) ?? 0;

  // Buckets by depth, deepest first: a parent added while its child is summarised lands in a
  // shallower bucket, which is still to come.
  const buckets = new Map<number, SummaryTarget[]>();
  const queued = new Set<number>();
  let current = Infinity;
  const enqueue = (t: SummaryTarget) => {
    queued.add(t.sid);
    // Never behind the level being summarised (a cycle of parent links has no true depth).
    const d = Math.min(depthOf(t), current);
    const bucket = buckets.get(d) ?? [];
    bucket.push(t);
    buckets.set(d, bucket);
  };
  dirty.forEach(enqueue);

  /** First-hand call keys of the sessions summarised in this run (their rows are not written yet). */
  const fresh = new Map<number, string[]>();
  const childCalls = async (sid: number): Promise<Set<string>> => {
    const children = childrenOf.get(sid) ?? [];
    const keys = new Set(children.flatMap((c) => fresh.get(c) ?? []));
    const stored = children.filter((c) => !fresh.has(c));
    if (stored.length > 0) for (const k of await port.callKeys(stored, false)) keys.add(k);
    return keys;
  };

  let jobs: SummaryJob[] = [];
  let pendingEvents = 0;
  let count = 0;
  for (let depth = Math.max(...buckets.keys()); depth >= 0; depth--) {
    current = depth;
    const level = (buckets.get(depth) ?? []).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    buckets.set(depth, level);
    // A parent queued at this level while it runs is appended and still visited.
    for (const target of level) {
      const events = await port.sessionEvents(target);
      const out = summarize(target.format, { facts: target.facts, events, childCalls: await childCalls(target.sid) });
      const dropUsage = out.dropUsage ?? [];
      const dropped = new Set(dropUsage);
      const calls = out.calls ?? llmCalls(dropped.size === 0 ? events : events.map((e) => (dropped.has(e.seq) ? { ...e, usage: null } : e)));
      const own = firstHandKeys(calls);
      fresh.set(target.sid, own);
      jobs.push({ target, out, calls, dropUsage });
      count++;
      const parent = parentOf.get(target.sid);
      if (parent !== undefined && !queued.has(parent) && own.length > 0) {
        const mirrors = await port.callKeys([parent], true);
        if (own.some((k) => mirrors.has(k))) enqueue(await port.target(parent));
      }
      pendingEvents += events.length + 1;
      if (pendingEvents >= EVENTS_PER_COMMIT) {
        await port.commit(jobs, false);
        jobs = [];
        pendingEvents = 0;
      }
    }
  }
  await port.commit(jobs, true);
  return count;
}
