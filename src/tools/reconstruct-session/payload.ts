// The full payload of a timeline event: what its raw line says about it, one function per
// format. Prompts (text assembled and sent to the model) and tool arguments/results are removed
// on request; whatever is removed is listed in `omitted` with its size in bytes, so the caller
// knows it exists and how big it is.

import type { Format } from '../../core/model.js';
import type { StoredEvent } from '../../formats/importer.js';
import type { Obj } from './evidence.js';

export interface ContentOptions {
  includePrompts: boolean;
  includeToolPayloads: boolean;
}

export const asObj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);

const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || (asObj(v) !== undefined && Object.keys(v as Obj).length === 0);

function byteSize(v: unknown): number {
  if (v === undefined) return 0;
  return Buffer.byteLength(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
}

/** Removes keys from (copied) objects and remembers what it removed. */
class Omitter {
  readonly omitted: Record<string, number> = {};

  /** Delete `key` from `target` (a copy owned by the caller), listing it as `label` unless it was empty. */
  take(target: Obj | undefined, key: string, label: string): void {
    if (!target || !(key in target)) return;
    const value = target[key];
    delete target[key];
    if (!isEmpty(value)) this.omitted[label] = byteSize(value);
  }

  finish(content: Obj): Obj {
    return Object.keys(this.omitted).length ? { ...content, omitted: this.omitted } : content;
  }
}

// ---- Control Plane: the LedgerEntry (metadata dict whole, plus the entry's own fields).

/** Metadata keys that hold text assembled for the model. */
const PLANE_PROMPT_KEYS = ['prompt', 'prompts', 'system_prompt', 'messages'];

function planeContent(e: StoredEvent, entry: Obj, opts: ContentOptions): Obj {
  const o = new Omitter();
  const metadata: Obj = { ...(asObj(entry.metadata) ?? {}) };
  const content: Obj = {
    submission_id: entry.submission_id ?? null,
    decision: entry.decision ?? null,
    reason: entry.reason ?? null,
    prompts_used: entry.prompts_used ?? [],
    timestamp: entry.timestamp ?? null,
    metadata,
  };
  if (!opts.includePrompts) {
    o.take(content, 'prompts_used', 'prompts_used');
    for (const k of PLANE_PROMPT_KEYS) o.take(metadata, k, `metadata.${k}`);
  }
  if (!opts.includeToolPayloads && e.type === 'TOOL_CALL') {
    o.take(metadata, 'arguments', 'metadata.arguments');
    o.take(metadata, 'result', 'metadata.result');
  }
  return o.finish(content);
}

// ---- Claude Code: the content block of the event's part, with its message's model and usage.

/** Line fields every transcript line repeats (the row already says them, or they are per file). */
const CC_ENVELOPE = new Set([
  'type', 'sessionId', 'cwd', 'version', 'gitBranch', 'userType', 'isSidechain', 'slug', 'agentId', 'uuid', 'parentUuid', 'timestamp',
]);
const CC_TOOL_CALLS = new Set(['tool_use', 'server_tool_use']);

const isToolResultBlock = (type: unknown): boolean => typeof type === 'string' && (type === 'tool_result' || type.endsWith('_tool_result'));

/** Base64 image data is never useful to a reader of a timeline: its size stands in for it. */
function withoutImageData(block: Obj, o: Omitter, label: string): Obj {
  const source = asObj(block.source);
  if (block.type !== 'image' || !source || !('data' in source)) return block;
  const copy = { ...source };
  o.take(copy, 'data', `${label}.source.data`);
  return { ...block, source: copy };
}

function claudeBlock(raw: Obj, o: Omitter, opts: ContentOptions): Obj {
  // A thinking signature is an opaque integrity token, not content.
  const { signature: _signature, ...rest } = raw;
  let block: Obj = withoutImageData(rest, o, 'block');
  if (Array.isArray(block.content)) {
    block = { ...block, content: block.content.map((b, i) => (asObj(b) ? withoutImageData(b as Obj, o, `block.content.${i}`) : b)) };
  }
  if (!opts.includeToolPayloads) {
    if (CC_TOOL_CALLS.has(String(block.type))) o.take(block, 'input', 'block.input');
    if (isToolResultBlock(block.type)) o.take(block, 'content', 'block.content');
  }
  return block;
}

/** Content blocks of a message; a plain string is one text block (as the importer reads it). */
function blocksOf(content: unknown): Obj[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.map((b) => asObj(b) ?? { type: 'unknown' }) : [];
}

/** The content block an event of a Claude Code message line stands for (its part), if any. */
export function claudeBlockOf(e: StoredEvent, line: Obj): Obj | undefined {
  return blocksOf(asObj(line.message)?.content)[e.part];
}

function claudeContent(e: StoredEvent, line: Obj, opts: ContentOptions): Obj {
  const o = new Omitter();
  const content: Obj = { uuid: line.uuid ?? null, parent_uuid: line.parentUuid ?? null, timestamp: line.timestamp ?? null };
  const rest = Object.fromEntries(Object.entries(line).filter(([k]) => !CC_ENVELOPE.has(k)));
  if (line.type !== 'assistant' && line.type !== 'user') return o.finish({ ...content, ...rest });
  const message = asObj(line.message) ?? {};
  const block = claudeBlockOf(e, line);
  if (block) content.block = claudeBlock(block, o, opts);
  if (line.type === 'assistant') {
    content.message_id = message.id ?? null;
    content.request_id = line.requestId ?? null;
    content.model = message.model ?? null;
    content.stop_reason = message.stop_reason ?? null;
    // Usage rides on part 0 only, as the importer counts it: one line is one record of usage.
    if (e.part === 0 && message.usage !== undefined) content.usage = message.usage;
  }
  // toolUseResult repeats the tool result in another shape; its agent figures are in the facts.
  const { message: _m, requestId: _r, toolUseResult: _t, ...others } = rest;
  return o.finish({ ...content, ...others });
}

// ---- Amplifier: the transcript message (its block for an assistant part) or the event record.

/** Keys of llm:request / provider:request data that hold the request sent to the model. */
const AMPLIFIER_PROMPT_KEYS = ['raw', 'messages', 'system', 'request'];
const AMPLIFIER_TOOL_KEYS = ['tool_input', 'result', 'arguments', 'input', 'output'];

function amplifierEvent(e: StoredEvent, line: Obj, opts: ContentOptions): Obj {
  const o = new Omitter();
  const { schema: _s, event: _e, session_id: _id, ...rest } = line;
  const data = asObj(rest.data) ? { ...(rest.data as Obj) } : undefined;
  const content: Obj = data ? { ...rest, data } : rest;
  if (!opts.includePrompts && (e.type === 'llm:request' || e.type === 'provider:request')) {
    for (const k of AMPLIFIER_PROMPT_KEYS) o.take(data, k, `data.${k}`);
  }
  if (!opts.includeToolPayloads && e.type.startsWith('tool:')) {
    for (const k of AMPLIFIER_TOOL_KEYS) o.take(data, k, `data.${k}`);
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

function amplifierMessage(e: StoredEvent, line: Obj, opts: ContentOptions): Obj {
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

function amplifierContent(e: StoredEvent, line: Obj, opts: ContentOptions): Obj {
  return e.ledger === 'events' ? amplifierEvent(e, line, opts) : amplifierMessage(e, line, opts);
}

/** The full payload content of `e` from its parsed raw line. */
export function eventContent(format: Format, e: StoredEvent, line: Obj, opts: ContentOptions): Obj {
  switch (format) {
    case 'control-plane':
      return planeContent(e, line, opts);
    case 'claude-code':
      return claudeContent(e, line, opts);
    case 'amplifier':
      return amplifierContent(e, line, opts);
    default:
      return { ...line };
  }
}
