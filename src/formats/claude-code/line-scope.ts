// The per-line context every line handler shares: where the line's events go (which session),
// the fields common to all of them, and one emit that fills those in.

import type { CorrelationIds } from '../../core/model.js';
import type { EventInput, LineContext } from '../importer.js';
import { asId, asStr, type Json } from './json-access.js';
import type { ParserState } from './parser-state.js';

/** Summaries end up about 300 characters; more than this never reaches the store. */
const SUMMARY_HEAD = 1200;

/** What the file's place in the layout says, computed once per parser. */
export interface Layout {
  /** Slug folder name (the project). */
  project: string;
  /** Set for sub-agent files (`agent-<id>.jsonl`). */
  agentId?: string;
}

export type EventDraft = Omit<EventInput, 'sessionId' | 'type' | 'timestamp' | 'turn' | 'ids'> & {
  ids?: CorrelationIds;
  /** Override the line's timestamp (undefined keeps it; null drops it). */
  timestamp?: string | null;
};

export interface LineScope {
  readonly obj: Json;
  readonly ctx: LineContext;
  readonly state: ParserState;
  readonly layout: Layout;
  /** Native line type ('' when the line has none). */
  readonly type: string;
  /** Session the line's events belong to (undefined: unattributable, the pipeline reports it). */
  readonly sessionId: string | undefined;
  /** True when that session is the file's own (turns, title and cwd facts apply). */
  readonly own: boolean;
  /** Emit an event; the draft (and its ids) must be a fresh object: emit completes it in place. */
  emit(draft: EventDraft): void;
}

export function makeScope(
  obj: Json,
  ctx: LineContext,
  state: ParserState,
  layout: Layout,
  sessionId: string | undefined,
  own: boolean,
): LineScope {
  const type = asStr(obj.type) ?? '';
  const timestamp = asStr(obj.timestamp);
  const entry = asId(obj.uuid);
  const agent = asId(obj.agentId) ?? layout.agentId;
  return {
    obj,
    ctx,
    state,
    layout,
    type,
    sessionId,
    own,
    emit(draft) {
      // Hot path (every line): complete the caller's fresh draft in place instead of copying it.
      const event = draft as EventInput;
      const ids = draft.ids ?? {};
      if (entry !== undefined && ids.entry === undefined) ids.entry = entry;
      if (agent !== undefined && ids.agent === undefined) ids.agent = agent;
      event.ids = ids;
      event.type = type || 'unknown';
      if (draft.timestamp === undefined) event.timestamp = timestamp;
      event.turn = own && state.turn > 0 ? state.turn : null;
      if (sessionId !== undefined) event.sessionId = sessionId;
      // The pipeline flattens whitespace before bounding: hand it a head, not a whole document.
      if (event.summary !== undefined && event.summary.length > SUMMARY_HEAD) event.summary = event.summary.slice(0, SUMMARY_HEAD);
      ctx.emit(event);
    },
  };
}
