// What a timeline row says without conversation text: small facts from the stored event, and the
// summary of a tool event without its payload. (A text event's summary without its text is the
// format's: its profile's textFreeSummary.)

import type { Obj } from '../../analysis/evidence-lines.js';
import type { StoredEvent } from '../../core/events.js';
import type { FormatProfile } from '../../formats/profile.js';

/** Stored attrs that hold conversation text (Control Plane turns). */
const TEXT_ATTRS = new Set(['user_message', 'response_preview']);
/** Stored attrs that repeat tool arguments (a Task's description). */
const TOOL_ATTRS = new Set(['description']);

const snake = (k: string): string => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The small facts of an event: the format's own (a Control Plane entry id), tool-call id, tool
 * name and status, token usage, and the importer's attrs (decision, wo_type, error_code,
 * stop_reason…) with snake_case names.
 */
export function eventFacts(e: StoredEvent, profile: FormatProfile, includeToolPayloads: boolean): Obj {
  const out: Obj = { ...profile.eventFacts(e) };
  if (e.ids.toolCall) out.tool_call_id = e.ids.toolCall;
  if (e.toolName) out.tool_name = e.toolName;
  if (e.toolStatus) out.tool_status = e.toolStatus;
  if (e.usage) {
    // Claude Code repeats one response's usage on each of its lines: rows sharing a key are one call.
    out.usage_key = e.usage.key;
    if (e.usage.model) out.model = e.usage.model;
    out.input_tokens = e.usage.input;
    out.output_tokens = e.usage.output;
    if (e.usage.cacheWrite) out.cache_write_tokens = e.usage.cacheWrite;
    if (e.usage.cacheRead) out.cache_read_tokens = e.usage.cacheRead;
  }
  for (const [k, v] of Object.entries(e.attrs)) {
    if (TEXT_ATTRS.has(k) || (!includeToolPayloads && TOOL_ATTRS.has(k))) continue;
    // Amplifier logs every record at a level; only the unusual ones say something.
    if (k === 'level' && (v === 'INFO' || v === 'DEBUG')) continue;
    out[snake(k)] = v;
  }
  return out;
}

/** The summary of a tool event when tool payloads are left out (stored summaries preview them). */
export function toolSummary(e: StoredEvent): string {
  const name = e.toolName ?? 'tool';
  const status = e.toolStatus ? `: ${e.toolStatus}` : '';
  return e.kind === 'tool_call' ? `Tool call ${name}${status}` : `Tool result ${name}${status}`;
}
