// Events as every layer sees them: as the ingest pipeline hands them to the store (ParsedEvent),
// as the store gives them back to summarisers and tools (StoredEvent), and the LLM calls a
// summariser picks from them (LlmCall). Defined here, in core, so that formats, store, ingest and
// tools all import them downwards.

import type { CorrelationIds, EventKind, EventUsage } from './model.js';

/** An event as the summariser sees it: the stored columns, without payload. */
export interface StoredEvent {
  seq: number;
  sessionId: string;
  /** The store's id of the source file (evidence address with lineNumber); 0 outside a store. */
  fileId: number;
  ledger: string;
  file: string;
  lineNumber: number;
  part: number;
  /** Time key (nanosecond ISO, see core/time.ts); inherited from the line before when absent. */
  tsKey: string | null;
  type: string;
  kind: EventKind;
  actor: string | null;
  turn: number | null;
  ids: CorrelationIds;
  tiebreak: string;
  ledgerRank: number;
  usage: EventUsage | null;
  toolName: string | null;
  toolStatus: 'ok' | 'error' | null;
  summary: string;
  attrs: Record<string, unknown>;
}

/** An event ready for the store (the store assigns `seq` and `fileId`). */
export interface ParsedEvent extends Omit<StoredEvent, 'seq' | 'fileId'> {
  tsMissing: boolean;
  text: string | null;
}

/** One LLM call's tokens as the price table reads them; the kinds never overlap. */
export interface CallTokens {
  input: number;
  output: number;
  /** Every cache write; `cacheWrite1h` of them had the 1-hour lifetime (priced apart), the rest 5 minutes. */
  cacheWrite: number;
  cacheWrite1h: number;
  cacheRead: number;
  /** Output-priced tokens outside `output` (TokenCounts.reasoning: Gemini's thoughts); absent means 0. */
  reasoning?: number;
}

/** The earliest and latest time keys of `events` (null when none has a time). */
export function eventTimeSpan(events: Iterable<StoredEvent>): { first: string | null; last: string | null } {
  let first: string | null = null;
  let last: string | null = null;
  for (const e of events) {
    if (e.tsKey === null) continue;
    if (first === null || e.tsKey < first) first = e.tsKey;
    if (last === null || e.tsKey > last) last = e.tsKey;
  }
  return { first, last };
}

/**
 * One LLM call of a session, counted once: the record a summariser chose among the events that
 * carry its usage key. The store keeps these rows as they are (usage reports read them grouped).
 */
export interface LlmCall extends CallTokens {
  /** The chosen event (its seq in the session). */
  seq: number;
  /** The usage key shared by every record of the call. */
  key: string;
  /**
   * The call as another session's log copied it (Claude Code mirrors a sub-agent's calls into the
   * parent's progress lines). A copy never counts for a session whose child records the call
   * first-hand; the store passes the children's first-hand keys to the parent's summariser.
   */
  mirror: boolean;
  tsKey: string | null;
  model: string | null;
  /** A cost the log recorded for the call (Amplifier cost_usd), null when none. */
  costUsd: number | null;
}
