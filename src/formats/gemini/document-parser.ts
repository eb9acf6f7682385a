// The legacy chat (older Gemini CLIs): one JSON document, {sessionId, projectHash, startTime,
// lastUpdated, summary?, messages[]}, rewritten whole on every save. The pipeline reads a changed
// document as a new generation and retires the old one's events, so each version is parsed
// fresh: every message once, in order. All events sit on the document's line 1; each carries
// attrs.messageIndex, its place in messages[].

import type { LineParser } from '../importer.js';
import { emptyState } from './chat-state.js';
import { headerRecord } from './chat-parser.js';
import { asObj, type Obj } from './json.js';
import { messageEvents, type MessageSite } from './message-events.js';

export function createDocumentParser(): LineParser {
  return {
    line() {
      // A document: the pipeline calls document() instead.
    },
    document(doc, ctx) {
      if (doc === null) return; // invalid JSON: the pipeline reported it, the bytes are kept
      const record = asObj(doc);
      if (!record) {
        ctx.defect({ severity: 'error', kind: 'not_a_chat', line: null, message: `the chat document holds ${Array.isArray(doc) ? 'an array' : typeof doc}, not a conversation object; nothing was read from it` });
        return;
      }
      const state = emptyState();
      const site: MessageSite = { ctx, part: headerRecord(record, ctx, state), where: '', modelHint: false };
      const messages = record.messages;
      if (!Array.isArray(messages)) {
        ctx.defect({ severity: 'warning', kind: 'no_messages', line: null, message: 'the chat document has no messages list; only its header was read' });
        return;
      }
      messages.forEach((raw, index) => {
        const msg = asObj(raw);
        site.where = `messages[${index}]`;
        site.index = index;
        if (!msg || typeof msg.id !== 'string') {
          ctx.defect({ severity: 'warning', kind: 'not_a_message', line: null, message: `messages[${index}] is ${msg ? 'an object without a string id' : 'not an object'}; it was skipped` });
          return;
        }
        messageEvents(msg as Obj, site, state);
      });
    },
    snapshot: () => null,
  };
}
