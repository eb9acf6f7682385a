// Reading a session's own events for the analyst tools, and the rules they share: what counts as
// an error, which records are one LLM call, and where each user turn starts (the format's profile
// says which events count and which are turns).

import { tokenTotal } from '../core/model.js';
import type { StoredEvent } from '../core/events.js';
import type { FormatProfile } from '../formats/profile.js';
import type { Store } from '../store/store.js';

/**
 * Every event of the session itself (sub-agents excluded: they are sessions of their own), in
 * timeline order. One query; a session of millions of events is held in memory whole.
 */
export async function ownEvents(store: Store, id: string): Promise<StoredEvent[]> {
  const { events } = await store.sessionTimeline(id, { offset: 0, limit: Number.MAX_SAFE_INTEGER, descendants: false });
  return events;
}

/** An error event, a failed tool result, an ERROR-level record (Amplifier) or an API error (Claude Code). */
export function isErrorEvent(e: StoredEvent): boolean {
  return e.kind === 'error' || e.toolStatus === 'error' || e.attrs.level === 'ERROR' || e.attrs.apiError === true;
}

export const tokenSum = tokenTotal;

/**
 * The one record kept per LLM call: per usage key the record with the largest total (the first
 * wins a tie), as the summarisers count (so the sums equal the session's own tokens). Only the
 * records the format counts (`countsUsage`). Returned in timeline order.
 */
export function chosenUsage(profile: FormatProfile, events: readonly StoredEvent[]): StoredEvent[] {
  const byKey = new Map<string, StoredEvent>();
  for (const e of events) {
    if (!e.usage || !profile.countsUsage(e)) continue;
    const prev = byKey.get(e.usage.key);
    if (!prev || tokenSum(e.usage) > tokenSum(prev.usage!)) byKey.set(e.usage.key, e);
  }
  const chosen = new Set(byKey.values());
  return events.filter((e) => chosen.has(e));
}

/** Tool calls: one per tool-call id (else per event), with its tool name, in order of first sight. */
export function toolCalls(events: readonly StoredEvent[], ledger: string | null): { key: string; name: string; event: StoredEvent }[] {
  const seen = new Map<string, { key: string; name: string; event: StoredEvent }>();
  for (const e of events) {
    if (e.kind !== 'tool_call' || (ledger !== null && e.ledger !== ledger)) continue;
    const key = e.ids.toolCall ? `id:${e.ids.toolCall}` : `event:${e.seq}`;
    if (!seen.has(key)) seen.set(key, { key, name: e.toolName ?? 'unknown', event: e });
  }
  return [...seen.values()];
}

export interface TurnSegment {
  /** Turn number (1-based; a turn-closing marker's recorded turn number when it has one). */
  turn: number;
  /** The event that is the user's turn (it opens or closes the turn, as the profile's turnMarker says). */
  marker: StoredEvent;
  events: StoredEvent[];
}

/**
 * The session cut into user turns. Where a marker opens its turn (a prompt), a turn runs from one
 * marker to the next (events before the first are `before`). Where it closes it (Control Plane
 * writes TURN_RECORDED when a turn ends), a turn is the events after the previous marker up to
 * and including its own; events after the last one are `after` (a turn never recorded).
 */
export function turnSegments(profile: FormatProfile, events: readonly StoredEvent[]): { turns: TurnSegment[]; before: StoredEvent[]; after: StoredEvent[] } {
  const markers = new Set(profile.userTurns(events));
  const turns: TurnSegment[] = [];
  if (profile.turnMarker === 'closes') {
    let pending: StoredEvent[] = [];
    for (const e of events) {
      pending.push(e);
      if (!markers.has(e)) continue;
      turns.push({ turn: e.turn ?? turns.length + 1, marker: e, events: pending });
      pending = [];
    }
    return { turns, before: [], after: pending };
  }
  const before: StoredEvent[] = [];
  for (const e of events) {
    if (markers.has(e)) turns.push({ turn: turns.length + 1, marker: e, events: [] });
    const current = turns[turns.length - 1];
    (current ? current.events : before).push(e);
  }
  return { turns, before, after: [] };
}
