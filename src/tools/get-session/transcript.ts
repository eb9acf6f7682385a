// The conversation of a session as messages (user and assistant text, in timeline order), paged,
// each message's text bounded with a visible cut marker. Text comes from the raw lines of the
// page only.

import { lineKey, loadLines } from '../../analysis/evidence-lines.js';
import { capText } from '../../analysis/text-cap.js';
import { redactText } from '../../core/redact.js';
import { keyToIso } from '../../core/time.js';
import type { StoredEvent } from '../../core/events.js';
import type { FormatProfile } from '../../formats/profile.js';
import type { Store } from '../../store/store.js';

export const MESSAGE_CHARS = 2_000;

/** One page of the messages the format's profile names (transcriptMessages), each with its text from its line (messageText). */
export async function transcriptPage(store: Store, profile: FormatProfile, events: readonly StoredEvent[], offset: number, limit: number, redact: boolean) {
  const refs = profile.transcriptMessages(events);
  const slice = refs.slice(offset, offset + limit);
  const lines = await loadLines(store, slice.map((m) => m.event));
  const messages = slice.map((m, i) => {
    const line = lines.get(lineKey(m.event));
    // The one-line summary stands in when the line cannot be read (too large, missing).
    const raw = (line && 'obj' in line ? profile.messageText(m, line.obj) : null) ?? m.event.summary;
    const bounded = capText(redact ? redactText(raw) : raw, MESSAGE_CHARS);
    return {
      index: offset + i,
      role: m.role,
      timestamp: keyToIso(m.event.tsKey),
      text: bounded.text,
      chars: raw.length,
      turn: m.event.turn,
      type: m.event.type,
      ledger: m.event.ledger,
      file: m.event.file,
      line_number: m.event.lineNumber,
    };
  });
  return { total: refs.length, messages };
}
