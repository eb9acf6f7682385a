// What a Gemini line says about one of its events. A JSONL line is one message record; a legacy
// document holds every message under messages[] (its events carry attrs.messageIndex). Within a
// message, the event's part is found by what it is: a thought by attrs.thoughtIndex, a tool call
// or result by its call id, the text and the usage by the message itself.

import { Omitter } from '../shared/payload-omitter.js';
import type { StoredEvent } from '../importer.js';
import { objectOf, type ContentOptions, type MessageRef } from '../profile.js';
import { asObj, asString, partsOf, partsText, type Obj } from './json.js';

/** The message record `e` came from: the line itself, or the document's messages[attrs.messageIndex]. */
export function messageOf(e: StoredEvent, line: Obj): Obj | undefined {
  if (Array.isArray(line.messages)) {
    const index = e.attrs.messageIndex;
    return typeof index === 'number' ? asObj(line.messages[index]) : undefined;
  }
  return typeof line.id === 'string' ? line : undefined;
}

export function toolCallOf(e: StoredEvent, message: Obj | undefined): Obj | undefined {
  if (!message || !Array.isArray(message.toolCalls) || !e.ids.toolCall) return undefined;
  for (const raw of message.toolCalls) {
    const call = asObj(raw);
    if (call?.id === e.ids.toolCall) return call;
  }
  return undefined;
}

/** The text a tool call sent back: its function response's output or error, else what the CLI displayed. */
export function toolResultText(call: Obj | undefined): string | undefined {
  if (!call) return undefined;
  for (const part of partsOf(call.result)) {
    const response = asObj(asObj(asObj(part)?.functionResponse)?.response);
    const text = asString(response?.error) ?? asString(response?.output);
    if (text !== undefined) return text;
  }
  return asString(call.resultDisplay);
}

const pick = (o: Obj, keys: readonly string[]): Obj => {
  const out: Obj = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
};

const HEAD_KEYS = ['id', 'timestamp', 'type'];

export function geminiContent(e: StoredEvent, line: Obj, opts: ContentOptions): Obj {
  const message = messageOf(e, line);
  if (!message) {
    // A header, $set or $rewindTo record (or a document's header): shown as written, without messages.
    const { messages, ...rest } = line;
    return Array.isArray(messages) ? { ...rest, messages: `${messages.length} messages` } : rest;
  }
  const o = new Omitter();
  const head = pick(message, HEAD_KEYS);
  switch (e.kind) {
    case 'thinking': {
      const index = typeof e.attrs.thoughtIndex === 'number' ? e.attrs.thoughtIndex : -1;
      const thoughts = Array.isArray(message.thoughts) ? message.thoughts : [];
      return { ...head, model: message.model, thought: thoughts[index] };
    }
    case 'tool_call':
    case 'tool_result': {
      const call = { ...(toolCallOf(e, message) ?? {}) };
      // One record holds the call and its outcome: both events show it, payloads only on request.
      if (!opts.includeToolPayloads) for (const k of ['args', 'result', 'resultDisplay']) o.take(call, k, `toolCall.${k}`);
      return o.finish({ ...head, toolCall: call });
    }
    case 'llm_call':
      return { ...head, model: message.model, tokens: message.tokens };
    case 'user_message': {
      const out: Obj = { ...head, content: message.content };
      if (message.displayContent !== undefined) out.displayContent = message.displayContent;
      // A command the CLI expanded (`/init`) sent a prompt the person never typed.
      if (!opts.includePrompts && e.attrs.expanded === true) o.take(out, 'content', 'content');
      return o.finish(out);
    }
    case 'assistant_message':
      return { ...head, model: message.model, content: message.content };
    default:
      return { ...message };
  }
}

export function geminiToolCallInput(e: StoredEvent, line: Obj): Obj | undefined {
  return objectOf(toolCallOf(e, messageOf(e, line))?.args);
}

export function geminiFailureText(e: StoredEvent, line: Obj): string | undefined {
  const text = toolResultText(toolCallOf(e, messageOf(e, line)));
  return text !== undefined && text.trim() !== '' ? text : undefined;
}

/** A transcript message's whole text: what the person typed (displayContent) or the reply's text. */
export function geminiMessageText(m: MessageRef, line: Obj): string | null {
  const message = messageOf(m.event, line);
  if (!message) return null;
  if (m.role === 'user') {
    const typed = partsText(message.displayContent);
    return typed.trim() !== '' ? typed : partsText(message.content);
  }
  return partsText(message.content);
}
