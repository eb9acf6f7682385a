// The session summary's counts that every format with plain tool results reads off its events the
// same way. One definition, so a new format cannot count tool errors or warnings differently.

import type { StoredEvent } from '../../core/events.js';
import type { SessionSummary } from '../../core/model.js';

/** The summary's counts read off its events by kind (the fields of SessionSummary they fill). */
export type EventTallies = Pick<SessionSummary, 'eventCount' | 'toolCalls' | 'toolErrors' | 'errors' | 'warnings' | 'compactions'>;

/** Counts of `events` by kind, in one pass: calls, failed results, errors, warnings, compactions. */
export function eventTallies(events: readonly StoredEvent[]): EventTallies {
  const t: EventTallies = { eventCount: events.length, toolCalls: 0, toolErrors: 0, errors: 0, warnings: 0, compactions: 0 };
  for (const e of events) {
    if (e.kind === 'tool_call') t.toolCalls++;
    else if (e.kind === 'tool_result' && e.toolStatus === 'error') t.toolErrors++;
    else if (e.kind === 'error') t.errors++;
    else if (e.kind === 'warning') t.warnings++;
    else if (e.kind === 'compaction') t.compactions++;
  }
  return t;
}
