// What an Amplifier line says about its event. Two ledgers: the transcript (one message per line;
// an assistant message's content blocks and tool_calls are its parts) and events.jsonl (one hook
// event per line, its payload under `data`).

import { Omitter } from '../shared/payload-omitter.js';
import { textBlocks } from '../shared/replay-text.js';
import { asObj, type Obj } from '../shared/tool-summary.js';
import type { StoredEvent } from '../../core/events.js';
import { objectOf, type ContentOptions, type MessageRef } from '../profile.js';

/** Keys of llm:request / provider:request data that hold the request sent to the model. */
const PROMPT_KEYS = ['raw', 'messages', 'system', 'request'];
const TOOL_KEYS = ['tool_input', 'result', 'arguments', 'input', 'output'];

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

function eventRecord(e: StoredEvent, line: Obj, opts: ContentOptions): Obj {
  const o = new Omitter();
  const { schema: _s, event: _e, session_id: _id, ...rest } = line;
  const data = asObj(rest.data) ? { ...(rest.data as Obj) } : undefined;
  const content: Obj = data ? { ...rest, data } : rest;
  if (!opts.includePrompts && (e.type === 'llm:request' || e.type === 'provider:request')) {
    for (const k of PROMPT_KEYS) o.take(data, k, `data.${k}`);
  }
  if (!opts.includeToolPayloads && e.type.startsWith('tool:')) {
    for (const k of TOOL_KEYS) o.take(data, k, `data.${k}`);
  }
  return o.finish(content);
}

/**
 * The block an assistant part stands for: content blocks first, then the `tool_calls` entries
 * that repeat no content block (the transcript parser numbers parts the same way).
 */
export function amplifierBlockOf(e: StoredEvent, line: Obj): Obj | string | undefined {
  const content = line.content;
  if (typeof content === 'string') return e.part === 0 ? content : undefined;
  const blocks = Array.isArray(content) ? content.map((b) => asObj(b) ?? {}) : [];
  if (e.part < blocks.length) return blocks[e.part];
  const seen = new Set<string>();
  for (const b of blocks) if ((b.type === 'tool_call' || b.type === 'tool_use') && typeof b.id === 'string' && b.id) seen.add(b.id);
  const extra: Obj[] = [];
  for (const raw of Array.isArray(line.tool_calls) ? line.tool_calls : []) {
    const call = asObj(raw);
    const id = typeof call?.id === 'string' && call.id ? call.id : undefined;
    if (!call || (id && seen.has(id))) continue;
    if (id) seen.add(id);
    extra.push(call);
  }
  return extra[e.part - blocks.length];
}

function transcriptMessage(e: StoredEvent, line: Obj, opts: ContentOptions): Obj {
  const o = new Omitter();
  const { content: _c, tool_calls: _t, ...rest } = line;
  const out: Obj = { ...rest };
  if (line.role === 'assistant') {
    const block = amplifierBlockOf(e, line);
    if (typeof block === 'string') out.content = block;
    else if (block) {
      const { signature: _sig, ...b } = block;
      if (!opts.includeToolPayloads) {
        o.take(b, 'input', 'block.input');
        o.take(b, 'arguments', 'block.arguments');
      }
      out.block = b;
    }
  } else {
    out.content = line.content;
    if (!opts.includeToolPayloads && line.role === 'tool') o.take(out, 'content', 'content');
  }
  return o.finish(out);
}

export function amplifierContent(e: StoredEvent, line: Obj, opts: ContentOptions): Obj {
  return e.ledger === 'events' ? eventRecord(e, line, opts) : transcriptMessage(e, line, opts);
}

export function amplifierToolCallInput(e: StoredEvent, line: Obj): Obj | undefined {
  const data = asObj(line.data);
  if (data) return objectOf(data.tool_input ?? data.arguments ?? data.input);
  const block = asObj(amplifierBlockOf(e, line));
  return objectOf(block?.input ?? block?.arguments);
}

function parse(raw: string): Obj | undefined {
  try {
    return asObj(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

/** Amplifier's ToolResult `{success, output, error}` (a JSON string in the transcript): its error, else its output. */
function toolResultText(value: unknown): string | undefined {
  const result = typeof value === 'string' && value.trimStart().startsWith('{') ? (parse(value) ?? value) : value;
  const o = asObj(result);
  if (!o) return str(result);
  const error = o.error;
  return str(asObj(error)?.message) ?? str(error) ?? str(o.output) ?? str(asObj(o.output)?.stderr) ?? str(asObj(o.output)?.stdout);
}

export function amplifierFailureText(_e: StoredEvent, line: Obj): string | undefined {
  const data = asObj(line.data);
  if (data) return toolResultText(data.result) ?? str(asObj(data.error)?.message) ?? str(data.error);
  return toolResultText(line.content);
}

/** Transcript lines only (events.jsonl repeats prompts): a user message's text, an assistant part's block text. */
export function amplifierMessageText(m: MessageRef, line: Obj): string | null {
  if (m.event.ledger !== 'transcript') return null;
  if (m.role === 'user') return textBlocks(line.content);
  const block = amplifierBlockOf(m.event, line);
  return typeof block === 'string' ? block : typeof block?.text === 'string' ? block.text : null;
}
