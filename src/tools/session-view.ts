// How a session row is shown in tool results: snake_case names, seed field names first.

import { z } from 'zod';
import { redactText } from '../core/redact.js';
import { tokenTotal } from '../core/model.js';
import { keyToMillis, toTimeKey } from '../core/time.js';
import type { SessionRow } from '../store/store.js';

export const tokensShape = z.object({
  input: z.number().int(),
  output: z.number().int(),
  cache_write: z.number().int(),
  cache_read: z.number().int(),
  /** Output-priced tokens outside output (Gemini's thoughts); present only when there are some. */
  reasoning: z.number().int().optional(),
  total: z.number().int(),
});

export const sessionListItemShape = z.object({
  session_id: z.string(),
  format: z.string(),
  kind: z.string(),
  parent_id: z.string().nullable(),
  project: z.string().nullable(),
  title: z.string().nullable(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  duration_seconds: z.number().nullable(),
  turn_count: z.number().int(),
  status: z.string(),
  first_user_message: z.string().nullable(),
  last_response_preview: z.string().nullable(),
  models: z.array(z.string()),
  tokens: tokensShape,
  event_count: z.number().int(),
  children: z.number().int(),
  bad_lines: z.number().int(),
});

export function tokensView(t: SessionRow['tokensTotal']) {
  return {
    input: t.input,
    output: t.output,
    cache_write: t.cacheWrite,
    cache_read: t.cacheRead,
    ...(t.reasoning ? { reasoning: t.reasoning } : {}),
    total: tokenTotal(t),
  };
}

function durationSeconds(start: string | null, end: string | null): number | null {
  if (!start || !end) return null;
  const a = toTimeKey(start);
  const b = toTimeKey(end);
  if (!a || !b) return null;
  return Math.round((keyToMillis(b) - keyToMillis(a)) / 1000);
}

/** The list_sessions row of a session (redacted unless asked otherwise). */
export function sessionListItem(s: SessionRow, redact: boolean): z.infer<typeof sessionListItemShape> {
  const r = (t: string | null) => (t !== null && redact ? redactText(t) : t);
  return {
    session_id: s.id,
    format: s.format,
    kind: s.kind,
    parent_id: s.parentId,
    project: s.project,
    title: r(s.title),
    started_at: s.startedAt,
    ended_at: s.endedAt,
    duration_seconds: durationSeconds(s.startedAt, s.endedAt),
    turn_count: s.turnCount,
    status: s.status,
    first_user_message: r(s.firstUserMessage),
    last_response_preview: r(s.lastResponsePreview),
    models: s.models,
    tokens: tokensView(s.tokensTotal),
    event_count: s.eventCount,
    children: s.childCount,
    bad_lines: s.badLines,
  };
}
