// A session with its sub-agents, forks and sidechains, digested for the metrics views: a piece of
// work's steps, tool calls, main model and files include what its sub-agents did.

import { loadDescendants } from '../../analysis/descendants.js';
import { chosenUsage } from '../../analysis/session-events.js';
import type { StoredEvent } from '../../core/events.js';
import type { FormatProfile } from '../../formats/profile.js';
import { profilesOf } from '../../formats/registry.js';
import type { SessionRow, Store } from '../../store/store.js';
import { filesTouched } from './files-touched.js';


export interface FamilyDigest {
  rows: SessionRow[];
  /** The profile of the session's format. */
  profile: FormatProfile;
  /** Each family member's own events, in timeline order (read once, for every view). */
  eventsOf: Map<string, StoredEvent[]>;
  /** The family's LLM calls, each once (the records the summaries count). */
  calls: StoredEvent[];
  /** LLM calls (model steps) of the session and its descendants. */
  steps: number;
  toolCalls: number;
  toolErrors: number;
  subagents: number;
  /** The model with the most calls (ties: name order); null when no call named one. */
  model: string | null;
  files: string[];
}

export async function familyDigest(store: Store, session: SessionRow): Promise<FamilyDigest> {
  const rows = [session, ...(await loadDescendants(store, session.id))];
  const { events } = await store.sessionTimeline(session.id, { offset: 0, limit: Number.MAX_SAFE_INTEGER, descendants: rows.length > 1 });
  const bySession = new Map<string, StoredEvent[]>();
  for (const e of events) {
    const list = bySession.get(e.sessionId);
    if (list) list.push(e);
    else bySession.set(e.sessionId, [e]);
  }
  const profiles = await profilesOf(rows.map((r) => r.format));
  const profile = profiles.get(session.format)!;
  const calls = rows.flatMap((r) => chosenUsage(profiles.get(r.format)!, bySession.get(r.id) ?? []));
  const isModel = (m: string | null | undefined): m is string => !!m && !profile.placeholderModels.includes(m);
  const perModel = new Map<string, number>();
  for (const c of calls) {
    const m = c.usage!.model;
    if (isModel(m)) perModel.set(m, (perModel.get(m) ?? 0) + 1);
  }
  const model = [...perModel].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0]?.[0] ?? null;
  return {
    rows,
    profile,
    eventsOf: bySession,
    calls,
    steps: rows.reduce((n, r) => n + r.llmCalls, 0),
    toolCalls: rows.reduce((n, r) => n + r.toolCalls, 0),
    toolErrors: rows.reduce((n, r) => n + r.toolErrors, 0),
    subagents: rows.length - 1,
    model: model ?? session.models.find(isModel) ?? null,
    files: await filesTouched(store, profile, events),
  };
}
