// Per-format rules that several tools apply to a session's events the same way (overview,
// analyze_events): one definition each, so their counts never disagree.

import type { StoredEvent } from '../formats/importer.js';
import type { SessionRow } from '../store/store.js';

/**
 * The ledger Amplifier tool calls are counted from. The transcript and events.jsonl both record
 * every call (with the same tool_call_id in the fixtures; a fork's transcript also repeats its
 * parent's calls), so counting both would double them; like the summariser, events.jsonl wins
 * whenever the session has one (it has the outcomes). Other formats: every ledger (null).
 */
export function toolLedger(session: SessionRow, events: readonly StoredEvent[]): string | null {
  if (session.format !== 'amplifier') return null;
  const fromSummary = session.attrs.toolCallLedger;
  if (typeof fromSummary === 'string' && fromSummary !== '') return fromSummary;
  return events.some((e) => e.ledger === 'events') ? 'events' : 'transcript';
}
