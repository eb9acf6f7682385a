// What a Claude Code transcript line says about one of its events: the content block the event
// stands for (one event per block), the full content with the message's model and usage, a tool
// call's input, the text a failed call sent back, and a message's text for the transcript.

import { Omitter } from '../shared/payload-omitter.js';
import { contentText, textBlocks } from '../shared/replay-text.js';
import { asObj, type Obj } from '../shared/tool-summary.js';
import type { StoredEvent } from '../../core/events.js';
import { objectOf, type ContentOptions, type MessageRef } from '../profile.js';

/** Line fields every transcript line repeats (the row already says them, or they are per file). */
const ENVELOPE = new Set([
  'type', 'sessionId', 'cwd', 'version', 'gitBranch', 'userType', 'isSidechain', 'slug', 'agentId', 'uuid', 'parentUuid', 'timestamp',
]);
const TOOL_CALLS = new Set(['tool_use', 'server_tool_use']);

const isToolResultBlock = (type: unknown): boolean => typeof type === 'string' && (type === 'tool_result' || type.endsWith('_tool_result'));
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** Base64 image data is never useful to a reader of a timeline: its size stands in for it. */
function withoutImageData(block: Obj, o: Omitter, label: string): Obj {
  const source = asObj(block.source);
  if (block.type !== 'image' || !source || !('data' in source)) return block;
  const copy = { ...source };
  o.take(copy, 'data', `${label}.source.data`);
  return { ...block, source: copy };
}

function shownBlock(raw: Obj, o: Omitter, opts: ContentOptions): Obj {
  // A thinking signature is an opaque integrity token, not content.
  const { signature: _signature, ...rest } = raw;
  let block: Obj = withoutImageData(rest, o, 'block');
  if (Array.isArray(block.content)) {
    block = { ...block, content: block.content.map((b, i) => (asObj(b) ? withoutImageData(b as Obj, o, `block.content.${i}`) : b)) };
  }
  if (!opts.includeToolPayloads) {
    if (TOOL_CALLS.has(String(block.type))) o.take(block, 'input', 'block.input');
    if (isToolResultBlock(block.type)) o.take(block, 'content', 'block.content');
  }
  return block;
}

/** Content blocks of a message; a plain string is one text block (as the importer reads it). */
function blocksOf(content: unknown): Obj[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.map((b) => asObj(b) ?? { type: 'unknown' }) : [];
}

/** The content block an event of a message line stands for (its part), if any. */
export function claudeBlockOf(e: StoredEvent, line: Obj): Obj | undefined {
  return blocksOf(asObj(line.message)?.content)[e.part];
}

export function claudeContent(e: StoredEvent, line: Obj, opts: ContentOptions): Obj {
  const o = new Omitter();
  const content: Obj = { uuid: line.uuid ?? null, parent_uuid: line.parentUuid ?? null, timestamp: line.timestamp ?? null };
  const rest = Object.fromEntries(Object.entries(line).filter(([k]) => !ENVELOPE.has(k)));
  if (line.type !== 'assistant' && line.type !== 'user') return o.finish({ ...content, ...rest });
  const message = asObj(line.message) ?? {};
  const block = claudeBlockOf(e, line);
  if (block) content.block = shownBlock(block, o, opts);
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

export function claudeToolCallInput(e: StoredEvent, line: Obj): Obj | undefined {
  return objectOf(claudeBlockOf(e, line)?.input);
}

/** The tool_result block of the failed call (by its tool_use_id), as text. */
export function claudeFailureText(e: StoredEvent, line: Obj): string | undefined {
  const blocks = asObj(line.message)?.content;
  if (!Array.isArray(blocks)) return undefined;
  const block = blocks.map(asObj).find((b) => b?.type === 'tool_result' && (!e.ids.toolCall || b.tool_use_id === e.ids.toolCall));
  return block ? str(contentText(block.content)) : undefined;
}

/** The event's text block, else every text block of its message. */
export function claudeMessageText(m: MessageRef, line: Obj): string | null {
  const block = claudeBlockOf(m.event, line);
  return typeof block?.text === 'string' ? block.text : textBlocks(asObj(line.message)?.content);
}
