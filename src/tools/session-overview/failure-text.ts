// The text of a failed tool call, for the overview's errors: event summaries keep only the first
// ~160 characters, while a failed command usually says what went wrong at the end of its output
// (the failing test, the last line of a traceback). So the listed failures read their evidence
// line and keep the start and the end of what the tool sent back.

import { redactText } from '../../core/redact.js';
import type { StoredEvent } from '../../core/events.js';
import type { FormatProfile } from '../../formats/profile.js';
import type { Store } from '../../store/store.js';

type Obj = Record<string, unknown>;

/** Characters kept from the start and from the end of a long failure text. */
export const FAILURE_HEAD_CHARS = 200;
export const FAILURE_TAIL_CHARS = 400;

const asObj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);

function parse(raw: string): Obj | undefined {
  try {
    return asObj(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

/** Redacted first, then cut to its start and end with a marker saying how much was left out. */
export function boundedFailureText(text: string, redact: boolean): string {
  const clean = (redact ? redactText(text) : text).trim();
  const max = FAILURE_HEAD_CHARS + FAILURE_TAIL_CHARS;
  if (clean.length <= max) return clean;
  // Code points, so a cut never splits a surrogate pair.
  const chars = [...clean];
  if (chars.length <= max) return clean;
  const left = chars.length - max;
  return `${chars.slice(0, FAILURE_HEAD_CHARS).join('')} …[${left} chars cut]… ${chars.slice(-FAILURE_TAIL_CHARS).join('')}`;
}

/**
 * The failure texts of the given events (failed tool calls), keyed by event, read from their
 * evidence in one store call. Events whose line says nothing more are left out.
 */
export async function failureTexts(store: Store, profile: FormatProfile, events: readonly StoredEvent[], redact: boolean): Promise<Map<StoredEvent, string>> {
  const out = new Map<StoredEvent, string>();
  const withLine = events.filter((e) => e.fileId > 0);
  if (withLine.length === 0) return out;
  const rows = await store.evidenceLines(withLine.map((e) => ({ fileId: e.fileId, lineNumber: e.lineNumber })));
  const byAddress = new Map(rows.map((r) => [`${r.fileId}#${r.lineNumber}`, r.raw.toString('utf8')]));
  for (const e of withLine) {
    const raw = byAddress.get(`${e.fileId}#${e.lineNumber}`);
    const line = raw === undefined ? undefined : parse(raw);
    const text = line ? profile.failureText(e, line) : undefined;
    if (text !== undefined) out.set(e, boundedFailureText(text, redact));
  }
  return out;
}
