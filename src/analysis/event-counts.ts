// analysis 'summary': counts by type and kind, first and last timestamps, duration — also the
// events_summary of get_session.

import { keyToIso, keyToMillis } from '../core/time.js';
import { eventTimeSpan, type StoredEvent } from '../core/events.js';
import { isErrorEvent } from './session-events.js';

/** Counts, most frequent first, then by name: stable and easy to scan. */
export function countBy(events: readonly StoredEvent[], keyOf: (e: StoredEvent) => string): Record<string, number> {
  const counts = new Map<string, number>();
  for (const e of events) counts.set(keyOf(e), (counts.get(keyOf(e)) ?? 0) + 1);
  return Object.fromEntries([...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)));
}

export function eventsSummary(events: readonly StoredEvent[]) {
  const { first, last } = eventTimeSpan(events);
  return {
    total_events: events.length,
    event_types: countBy(events, (e) => e.type),
    event_kinds: countBy(events, (e) => e.kind),
    ledgers: countBy(events, (e) => e.ledger),
    error_count: events.filter(isErrorEvent).length,
    warning_count: events.filter((e) => e.kind === 'warning').length,
    first_event: keyToIso(first),
    last_event: keyToIso(last),
    duration_ms: first !== null && last !== null ? keyToMillis(last) - keyToMillis(first) : null,
  };
}
