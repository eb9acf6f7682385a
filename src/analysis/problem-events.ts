// analysis 'errors': error and warning events in timeline order, each with its message (bounded),
// where its evidence is (ledger, file, line) and when it happened.

import { redactText } from '../core/redact.js';
import { keyToIso } from '../core/time.js';
import type { StoredEvent } from '../core/events.js';
import { capText } from './text-cap.js';
import { isErrorEvent } from './session-events.js';

const MESSAGE_CHARS = 500;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The summary, with the writer's own error words when the summary does not already carry them. */
function messageOf(e: StoredEvent): string {
  let text = e.summary;
  for (const k of ['error_message', 'error', 'message']) {
    const extra = str(e.attrs[k]);
    if (extra && !text.includes(extra.slice(0, 60))) text = text ? `${text} — ${extra}` : extra;
  }
  return text;
}

export function problemEvents(events: readonly StoredEvent[]): { index: number; event: StoredEvent; level: 'error' | 'warning' }[] {
  const out: { index: number; event: StoredEvent; level: 'error' | 'warning' }[] = [];
  events.forEach((event, index) => {
    if (isErrorEvent(event)) out.push({ index, event, level: 'error' });
    else if (event.kind === 'warning') out.push({ index, event, level: 'warning' });
  });
  return out;
}

export function errorItem(p: { index: number; event: StoredEvent; level: 'error' | 'warning' }, redact: boolean) {
  const e = p.event;
  const message = capText(redact ? redactText(messageOf(e)) : messageOf(e), MESSAGE_CHARS).text;
  return {
    ts: keyToIso(e.tsKey),
    event: e.type,
    level: p.level,
    kind: e.kind,
    message,
    code: str(e.attrs.error_code),
    tool_name: e.toolName,
    turn: e.turn,
    index: p.index,
    ledger: e.ledger,
    file: e.file,
    line_number: e.lineNumber,
  };
}
