// Events as both engines store them: the compact columns written (tiebreak NULL when equal to the
// entry id, usage key NULL when equal to message:request) and expanded again into a StoredEvent.

import type { EventKind } from '../../core/model.js';
import { partsToKey } from '../../core/time.js';
import type { ParsedEvent, StoredEvent } from '../../core/events.js';

/**
 * The session key of ledger entries that name no session (Control Plane contract-level entries):
 * no session has it, so ledger queries see them and session views and summaries do not.
 */
export const UNATTRIBUTED_SID = 0;

/** The tiebreak column: NULL when it equals the entry id (each byte here is paid once per event). */
export function compactTiebreak(e: ParsedEvent): string | null {
  return e.tiebreak !== '' && e.tiebreak === e.ids.entry ? null : e.tiebreak;
}

/** The usage_key column: NULL when it equals message:request (Claude Code), and without usage. */
export function compactUsageKey(e: ParsedEvent): string | null {
  const u = e.usage;
  return u && e.ids.message !== undefined && u.key === `${e.ids.message}:${e.ids.request}` ? null : u ? u.key : null;
}

/**
 * The tok_rs column (TokenCounts.reasoning): NULL when the event has no usage or no reasoning, so
 * formats without the kind pay nothing for it and read back exactly as before.
 */
export function compactReasoning(e: ParsedEvent): number | null {
  return e.usage?.reasoning ? e.usage.reasoning : null;
}

/** The event columns an engine reads, in the order eventFromRaw expects them (tok_rs came later: schema 5). */
export const EVENT_FIELDS = [
  'seq', 'file_id', 'line_number', 'part', 'ts_ms', 'ts_ns', 'type', 'kind', 'actor', 'turn', 'wo_id', 'tool_call_id', 'message_id',
  'request_id', 'agent_id', 'entry_id', 'tiebreak', 'ledger_rank', 'usage_key', 'model', 'tok_in', 'tok_out', 'tok_cw', 'tok_cr',
  'tool_name', 'tool_status', 'summary', 'attrs', 'tok_rs',
] as const;

/** EVENT_FIELDS as a select list over `events e`. */
export const EVENT_COLUMNS = EVENT_FIELDS.map((f) => `e.${f}`).join(', ');

/** A file's ledger and path (looked up once per file, not joined per event row). */
export interface FileName {
  ledger: string;
  rel_path: string;
}

/** One event from a row of EVENT_COLUMNS (positional: no intermediate object on SQLite's hot path). */
export function eventFromRaw(r: unknown[], sessionId: string, file: FileName): StoredEvent {
  const ids: StoredEvent['ids'] = {};
  if (r[10] !== null) ids.workOrder = r[10] as string;
  if (r[11] !== null) ids.toolCall = r[11] as string;
  if (r[12] !== null) ids.message = r[12] as string;
  if (r[13] !== null) ids.request = r[13] as string;
  if (r[14] !== null) ids.agent = r[14] as string;
  if (r[15] !== null) ids.entry = r[15] as string;
  return {
    seq: r[0] as number,
    sessionId,
    fileId: r[1] as number,
    ledger: file.ledger,
    file: file.rel_path,
    lineNumber: r[2] as number,
    part: r[3] as number,
    tsKey: r[4] === null ? null : partsToKey(r[4] as number, (r[5] as number | null) ?? 0),
    type: r[6] as string,
    kind: r[7] as EventKind,
    actor: r[8] as string | null,
    turn: r[9] as number | null,
    ids,
    // Stored NULL when equal to the entry id, usage key when equal to message:request (compact rows).
    tiebreak: (r[16] as string | null) ?? ids.entry ?? '',
    ledgerRank: r[17] as number,
    usage:
      r[20] === null
        ? null
        : {
            key: (r[18] as string | null) ?? `${ids.message}:${ids.request}`,
            model: r[19] as string | null,
            input: r[20] as number,
            output: (r[21] as number | null) ?? 0,
            cacheWrite: (r[22] as number | null) ?? 0,
            cacheRead: (r[23] as number | null) ?? 0,
            ...(r[28] === null || r[28] === 0 ? {} : { reasoning: r[28] as number }),
          },
    toolName: r[24] as string | null,
    toolStatus: r[25] as StoredEvent['toolStatus'],
    summary: r[26] as string,
    attrs: r[27] ? (JSON.parse(r[27] as string) as Record<string, unknown>) : {},
  };
}
