// The user's turns in an OpenCode session: the first text a person wrote in each user message
// (OpenCode also writes text into the user's message itself — file contents, tool echoes — marked
// synthetic, and a prompt may hold several text parts: one turn per message).

import type { StoredEvent } from '../../core/events.js';

/** Events that open a user turn, in timeline order. */
export function userTurns(events: readonly StoredEvent[]): StoredEvent[] {
  const seen = new Set<string>();
  const turns: StoredEvent[] = [];
  for (const e of events) {
    if (e.kind !== 'user_message' || e.attrs.nonHuman === true) continue;
    const message = e.ids.message ?? `${e.file}:${e.lineNumber}`;
    if (seen.has(message)) continue;
    seen.add(message);
    turns.push(e);
  }
  return turns;
}
