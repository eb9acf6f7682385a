// The conversation of a session as messages (user and assistant text, in timeline order), paged,
// each message's text bounded with a visible cut marker. Text comes from the raw lines of the
// page only.

import type { Format } from '../../core/model.js';
import { redactText } from '../../core/redact.js';
import { keyToIso } from '../../core/time.js';
import type { StoredEvent } from '../../formats/importer.js';
import type { Store } from '../../store/store.js';
import { capText } from '../get-events/cap.js';
import { lineKey, loadLines, type LineValue, type Obj } from '../reconstruct-session/evidence.js';
import { amplifierBlockOf, asObj, claudeBlockOf } from '../reconstruct-session/payload.js';

export const MESSAGE_CHARS = 2_000;

/** One message of the transcript: an event, and for a Control Plane turn which side of it. */
interface MessageRef {
  event: StoredEvent;
  role: 'user' | 'assistant';
}

/**
 * The events that are messages. Amplifier writes prompts to both the transcript and events.jsonl,
 * so the transcript alone is read when there is one; a Control Plane TURN_RECORDED holds the
 * user's message and the response, so it is two messages.
 */
export function messageRefs(format: Format, events: readonly StoredEvent[]): MessageRef[] {
  const hasTranscript = format === 'amplifier' && events.some((e) => e.ledger === 'transcript');
  const out: MessageRef[] = [];
  for (const e of events) {
    if (e.kind !== 'user_message' && e.kind !== 'assistant_message') continue;
    if (hasTranscript && e.ledger !== 'transcript') continue;
    if (format === 'control-plane') {
      if (e.type !== 'TURN_RECORDED') continue;
      out.push({ event: e, role: 'user' }, { event: e, role: 'assistant' });
    } else out.push({ event: e, role: e.kind === 'user_message' ? 'user' : 'assistant' });
  }
  return out;
}

function textOfBlocks(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const parts = content.map((b) => asObj(b)).filter((b): b is Obj => b !== undefined && typeof b.text === 'string').map((b) => b.text as string);
  return parts.length > 0 ? parts.join('\n') : null;
}

function textOf(format: Format, m: MessageRef, line: LineValue | undefined): string | null {
  if (!line || !('obj' in line)) return null;
  const obj = line.obj;
  if (format === 'control-plane') {
    const meta = asObj(obj.metadata) ?? {};
    const v = m.role === 'user' ? meta.user_message : (meta.response ?? meta.response_preview);
    return typeof v === 'string' ? v : null;
  }
  if (format === 'claude-code') {
    const block = claudeBlockOf(m.event, obj);
    return typeof block?.text === 'string' ? block.text : textOfBlocks(asObj(obj.message)?.content);
  }
  if (m.event.ledger === 'transcript') {
    if (m.role === 'user') return textOfBlocks(obj.content);
    const block = amplifierBlockOf(m.event, obj);
    return typeof block === 'string' ? block : typeof block?.text === 'string' ? block.text : null;
  }
  return null;
}

export async function transcriptPage(store: Store, format: Format, events: readonly StoredEvent[], offset: number, limit: number, redact: boolean) {
  const refs = messageRefs(format, events);
  const slice = refs.slice(offset, offset + limit);
  const lines = await loadLines(store, slice.map((m) => m.event));
  const messages = slice.map((m, i) => {
    const line = lines.get(lineKey(m.event));
    // The one-line summary stands in when the line cannot be read (too large, missing).
    const raw = textOf(format, m, line) ?? m.event.summary;
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
