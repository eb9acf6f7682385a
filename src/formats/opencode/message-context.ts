// What a part needs to know of its message: whose it is (a text part is the user's prompt or the
// assistant's reply only by its message's role) and when it was written (storage/ parts carry no
// time of their own). In the database stream a message's row comes right before its parts, so
// the parser keeps it. A storage/ part is a document of its own: its message was parsed just
// before it (discovery orders each message's parts after it) and is remembered here; after a
// resume the message document may have been skipped as unchanged, so it is read from its file.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { asNumber, asObject, asString, nonEmpty } from './json.js';

export interface MessageContext {
  id: string;
  role: 'user' | 'assistant' | 'unknown';
  /** ms */
  created?: number;
}

/** Messages remembered from storage/ documents (bounded: only the last few matter). */
const REMEMBERED = 512;
const remembered = new Map<string, MessageContext>();

export function roleOf(value: unknown): MessageContext['role'] {
  return value === 'user' || value === 'assistant' ? value : 'unknown';
}

/** Remember a storage/ message for the part documents that follow it. */
export function rememberMessage(context: MessageContext): void {
  remembered.delete(context.id);
  remembered.set(context.id, context);
  if (remembered.size > REMEMBERED) remembered.delete(remembered.keys().next().value!);
}

/**
 * The context of a storage/ part's message: remembered, else read from
 * `storage/message/<sessionID>/<messageID>.json` beside the part's `storage/part/<messageID>/`.
 */
export function storedMessage(partPath: string, sessionId: string | undefined, messageId: string): MessageContext | undefined {
  const known = remembered.get(messageId);
  if (known || !sessionId) return known;
  const storage = dirname(dirname(dirname(partPath)));
  try {
    const doc = asObject(JSON.parse(readFileSync(join(storage, 'message', sessionId, `${messageId}.json`), 'utf8')));
    if (!doc || nonEmpty(doc.id) !== messageId) return undefined;
    const context = { id: messageId, role: roleOf(asString(doc.role)), created: asNumber(asObject(doc.time)?.created) };
    rememberMessage(context);
    return context;
  } catch {
    return undefined;
  }
}
