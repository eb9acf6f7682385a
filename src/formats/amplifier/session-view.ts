// The summariser's reading of one session's events: which ledger answers which question.
//
// Both ledgers record prompts and tool calls; counting both would double them. The transcript
// is the conversation as the user saw it (prompts as typed, rewinds applied, forks' inherited
// turns included); events.jsonl is what this session itself did (usage, tool outcomes, levels).
// So: turns from the transcript (events when there is none), usage and errors from events only,
// tool calls from events whenever the session has an events log (even an empty one: a fork
// that never ran made no calls of its own), else from the transcript.

import type { StoredEvent, SummaryInput } from '../importer.js';

export interface SessionView {
  /** All events of the session in timeline order. */
  all: StoredEvent[];
  log: StoredEvent[];
  transcript: StoredEvent[];
  hasEventsLog: boolean;
  hasTranscript: boolean;
  /** Real user messages of the transcript (system reminders excluded). */
  userMessages: StoredEvent[];
  /** prompt:submit records of the events log. */
  promptsSubmitted: StoredEvent[];
  /** The ledger tool calls are counted from. */
  toolLedger: 'events' | 'transcript';
  tools: StoredEvent[];
}

function ledgersOf(facts: SummaryInput['facts']): string[] {
  const list = facts.attrs?.ledgers;
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
}

export function viewOf(input: SummaryInput): SessionView {
  const all = input.events;
  const ledgers = ledgersOf(input.facts);
  const log = all.filter((e) => e.ledger === 'events');
  const transcript = all.filter((e) => e.ledger === 'transcript');
  const hasEventsLog = ledgers.includes('events') || log.length > 0;
  const hasTranscript = ledgers.includes('transcript') || transcript.length > 0;
  const toolLedger = hasEventsLog ? 'events' : 'transcript';
  return {
    all,
    log,
    transcript,
    hasEventsLog,
    hasTranscript,
    userMessages: transcript.filter((e) => e.kind === 'user_message'),
    promptsSubmitted: log.filter((e) => e.type === 'prompt:submit'),
    toolLedger,
    tools: toolLedger === 'events' ? log : transcript,
  };
}

export interface OrphanCall {
  event: StoredEvent;
  id: string;
}

/**
 * Tool calls in `list` with no result: no tool message (transcript) or neither tool:post nor
 * tool:error (events). Calls without an id cannot be paired and are left alone.
 */
export function orphanCalls(list: StoredEvent[]): OrphanCall[] {
  const answered = new Set<string>();
  for (const e of list) {
    const id = e.ids.toolCall;
    if (id && (e.kind === 'tool_result' || e.type === 'tool:error')) answered.add(id);
  }
  const out: OrphanCall[] = [];
  const seen = new Set<string>();
  for (const e of list) {
    const id = e.ids.toolCall;
    if (e.kind !== 'tool_call' || !id || answered.has(id) || seen.has(id)) continue;
    seen.add(id);
    out.push({ event: e, id });
  }
  return out;
}

/** Tool calls that failed: an error result, or a tool:error record (unknown tool, crash). */
export function isToolFailure(e: StoredEvent): boolean {
  return (e.kind === 'tool_result' && e.toolStatus === 'error') || e.type === 'tool:error';
}

export function isErrorLevel(e: StoredEvent): boolean {
  return e.attrs.level === 'ERROR';
}
