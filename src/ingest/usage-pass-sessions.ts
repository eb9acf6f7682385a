// The usage pass's sessions (usage-pass.ts): the files of one root, read for usage
// (usage-pass-file.ts), become sessions with their chosen calls the way the store makes them —
// facts merged in file order (layout facts under the parsers'), each session's calls chosen by its
// format's own summariser (or its usageCalls hook: the same calls without the summary), children
// first, every parent told which calls its children record first-hand (so a mirror of a child's
// call stops counting, as the writer does it).

import type { LlmCall, StoredEvent } from '../core/events.js';
import { mergeFacts } from '../core/facts.js';
import { firstHandKeys, llmCalls } from '../core/llm-calls.js';
import type { SessionFacts } from '../core/model.js';
import { childrenFirst, depths } from '../core/session-tree.js';
import { compareTimeline } from '../core/timeline-order.js';
import type { Importer } from '../formats/importer.js';
import type { UsageSessionRow } from '../store/store.js';
import type { FileUsage } from './usage-pass-file.js';

export interface RootUsage {
  sessions: UsageSessionRow[];
  calls: { sessionId: string; call: LlmCall }[];
}

/**
 * Sessions and calls of one root from its files' usage, `files` in discovery order.
 *
 * @example const { sessions, calls } = rootUsage(claudeCode, files.map((f) => readFileUsage(claudeCode, f, undefined)));
 */
export function rootUsage(importer: Importer, files: readonly FileUsage[]): RootUsage {
  const facts = new Map<string, SessionFacts>();
  const events = new Map<string, StoredEvent[]>();
  // The files' events are numbered in place: the results are this call's to use.
  let seq = 0;
  for (const file of files) {
    for (const f of file.layoutFacts) {
      const known = facts.get(f.id);
      facts.set(f.id, known ? mergeFacts(f, known) : mergeFacts(undefined, f));
    }
    for (const f of file.facts) facts.set(f.id, mergeFacts(facts.get(f.id), f));
    for (const id of file.sessions) if (!events.has(id)) events.set(id, []);
    // Sequence numbers in reading order, as the store numbers events (only their order matters).
    for (const e of file.events) {
      e.seq = ++seq;
      events.get(e.sessionId)!.push(e);
    }
  }
  for (const id of events.keys()) if (!facts.has(id)) facts.set(id, { id, format: importer.format });

  const childrenOf = new Map<string, string[]>();
  for (const f of facts.values()) {
    if (!f.parentId || !facts.has(f.parentId)) continue;
    const siblings = childrenOf.get(f.parentId);
    if (siblings) siblings.push(f.id);
    else childrenOf.set(f.parentId, [f.id]);
  }
  const order = childrenFirst(facts.keys(), depths([...facts.values()].map((f) => ({ id: f.id, parentId: f.parentId ?? null }))));
  const firstHand = new Map<string, string[]>();
  const sessions: UsageSessionRow[] = [];
  const calls: { sessionId: string; call: LlmCall }[] = [];
  for (const id of order) {
    const f = facts.get(id)!;
    const list = (events.get(id) ?? []).sort(compareTimeline);
    const childCalls = new Set((childrenOf.get(id) ?? []).flatMap((c) => firstHand.get(c) ?? []));
    // The calls alone where the format can give them without a whole summary.
    const input = { facts: f, events: list, childCalls };
    const out = importer.usageCalls?.(input) ?? importer.summarize(input);
    const dropped = new Set(out.dropUsage ?? []);
    const chosen = out.calls ?? llmCalls(dropped.size === 0 ? list : list.map((e) => (dropped.has(e.seq) ? { ...e, usage: null } : e)));
    firstHand.set(id, firstHandKeys(chosen));
    sessions.push({ id, parentId: f.parentId ?? null, project: f.project ?? null, projectPath: f.projectPath ?? null, format: f.format });
    for (const call of chosen) calls.push({ sessionId: id, call });
  }
  return { sessions, calls };
}
