// One timeline row: the seed's columns (timestamp, source, event_type, actor, turn_number,
// wo_id, payload) plus where its evidence is (session, file, line) and a one-line summary.

import { z } from 'zod';
import { redactText, redactValue } from '../../core/redact.js';
import { keyToIso } from '../../core/time.js';
import type { LineValue, Obj } from '../../analysis/evidence-lines.js';
import type { StoredEvent } from '../../core/events.js';
import type { FormatProfile } from '../../formats/profile.js';
import { eventFacts, toolSummary } from './compact.js';
import { VIEW_KINDS, viewKindOf } from './view-kind.js';

export const rowShape = z.object({
  timestamp: z.string().nullable(),
  source: z.string(),
  event_type: z.string(),
  kind: z.string(),
  /** What a reader calls it (view-kind.ts): user, assistant, thinking, tool, hook, agent, error, llm, system. */
  view_kind: z.enum(VIEW_KINDS),
  actor: z.string().nullable(),
  turn_number: z.number().int().nullable(),
  wo_id: z.string().nullable(),
  session_id: z.string(),
  file: z.string(),
  line_number: z.number().int(),
  summary: z.string(),
  payload: z.record(z.unknown()),
});
export type TimelineRow = z.infer<typeof rowShape>;

export interface RowOptions {
  full: boolean;
  includePrompts: boolean;
  includeToolPayloads: boolean;
  redact: boolean;
}

/** Whether building the row of `e` needs its raw line (full content, or the size of its text). */
export function needsLine(profile: FormatProfile, e: StoredEvent, opts: RowOptions): boolean {
  return opts.full || profile.isTextEvent(e);
}

function summaryOf(profile: FormatProfile, e: StoredEvent, line: Obj | null, opts: RowOptions): string {
  if (!opts.includeToolPayloads && (e.kind === 'tool_call' || e.kind === 'tool_result')) return toolSummary(e);
  if (!opts.full && profile.isTextEvent(e)) return profile.textFreeSummary(e, line);
  return e.summary;
}

export function timelineRow(profile: FormatProfile, e: StoredEvent, line: LineValue | undefined, opts: RowOptions): TimelineRow {
  const obj = line && 'obj' in line ? line.obj : null;
  let payload = eventFacts(e, profile, opts.includeToolPayloads);
  if (opts.full) {
    const content = obj ? profile.eventContent(e, obj, opts) : { unavailable: line && 'unavailable' in line ? line.unavailable : 'no evidence line' };
    payload = { ...payload, ...content };
  }
  const summary = summaryOf(profile, e, obj, opts);
  return {
    timestamp: keyToIso(e.tsKey),
    source: e.ledger,
    event_type: e.type,
    kind: e.kind,
    view_kind: viewKindOf(profile, e),
    actor: e.actor,
    turn_number: e.turn,
    wo_id: e.ids.workOrder ?? null,
    session_id: e.sessionId,
    file: e.file,
    line_number: e.lineNumber,
    summary: opts.redact ? redactText(summary) : summary,
    payload: opts.redact ? redactValue(payload) : payload,
  };
}
