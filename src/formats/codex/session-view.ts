// The parts of a Codex session its summary and profile read: the person's turns (event_msg
// user_message; the response_item copies only when a rollout has no event_msg prompts), tool calls
// and results, and the calls that counted usage.

import type { StoredEvent } from '../importer.js';

/** The person's prompts: event_msg user_message, else (a rollout with none) the user-role copies that are not harness context. */
export function userTurns(events: readonly StoredEvent[]): StoredEvent[] {
  const prompts = events.filter((e) => e.kind === 'user_message');
  if (prompts.length > 0) return prompts;
  return events.filter((e) => e.attrs.mirrorOf === 'user_message');
}

/** Tool calls that wait for an output record (a web search is its own outcome). */
function awaitsOutput(e: StoredEvent): boolean {
  return e.kind === 'tool_call' && e.attrs.selfContained !== true;
}

/** Calls whose id no result answers, with the id. */
export function unansweredCalls(events: readonly StoredEvent[]): { event: StoredEvent; id: string }[] {
  const answered = new Set<string>();
  for (const e of events) if (e.kind === 'tool_result' && e.ids.toolCall) answered.add(e.ids.toolCall);
  const out: { event: StoredEvent; id: string }[] = [];
  for (const e of events) {
    if (!awaitsOutput(e) || !e.ids.toolCall || answered.has(e.ids.toolCall)) continue;
    out.push({ event: e, id: e.ids.toolCall });
  }
  return out;
}

export function isToolFailure(e: StoredEvent): boolean {
  return (e.kind === 'tool_result' || e.kind === 'tool_call') && e.toolStatus === 'error';
}

/** Whether the rollout records usage at all: a rollout without any token_count says nothing about it. */
export function recordsUsage(events: readonly StoredEvent[]): boolean {
  return events.some((e) => e.type === 'event_msg:token_count');
}
