// The parts of a runtime session its summary and profile read: the person's turns, unanswered
// tool calls, the turn endings and the model calls.

import type { StoredEvent } from '../importer.js';

/**
 * The person's prompts: user messages that open a turn. Steering messages typed mid-turn stay in
 * the transcript but open no turn; recovery nudges and handoff manifests are the harness's.
 */
export function userTurns(events: readonly StoredEvent[]): StoredEvent[] {
  return events.filter((e) => e.kind === 'user_message' && e.attrs.nonHuman !== true && e.attrs.origin !== 'steering');
}

/** Tool calls whose id no result answers. */
export function unansweredCalls(events: readonly StoredEvent[]): StoredEvent[] {
  const answered = new Set<string>();
  for (const e of events) if (e.kind === 'tool_result' && e.ids.toolCall) answered.add(e.ids.toolCall);
  return events.filter((e) => e.kind === 'tool_call' && e.ids.toolCall !== undefined && !answered.has(e.ids.toolCall));
}

/** The turn_end events, in order. */
export function turnEnds(events: readonly StoredEvent[]): StoredEvent[] {
  return events.filter((e) => typeof e.attrs.terminalState === 'string');
}

/** The terminal state of the session's last turn_end, or null when no turn has ended. */
export function lastTerminalState(events: readonly StoredEvent[]): string | null {
  const ends = turnEnds(events);
  const last = ends[ends.length - 1];
  return last ? String(last.attrs.terminalState) : null;
}
