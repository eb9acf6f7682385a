// What a timeline row says without conversation text: small facts from the stored event, and a
// summary that replaces message text with its size (compact mode shows the shape of a session,
// full mode its words).

import type { Format } from '../../core/model.js';
import type { StoredEvent } from '../../formats/importer.js';
import type { Obj } from './evidence.js';
import { amplifierBlockOf, asObj, claudeBlockOf } from './payload.js';

/** Stored attrs that hold conversation text (Control Plane turns). */
const TEXT_ATTRS = new Set(['user_message', 'response_preview']);
/** Stored attrs that repeat tool arguments (a Task's description). */
const TOOL_ATTRS = new Set(['description']);

const snake = (k: string): string => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The small facts of an event: entry and tool-call ids, tool name and status, token usage, and
 * the importer's attrs (decision, wo_type, error_code, stop_reason…) with snake_case names.
 */
export function eventFacts(e: StoredEvent, format: Format, includeToolPayloads: boolean): Obj {
  const out: Obj = {};
  if (format === 'control-plane' && e.ids.entry) out.entry_id = e.ids.entry;
  if (e.ids.toolCall) out.tool_call_id = e.ids.toolCall;
  if (e.toolName) out.tool_name = e.toolName;
  if (e.toolStatus) out.tool_status = e.toolStatus;
  if (e.usage) {
    // Claude Code repeats one response's usage on each of its lines: rows sharing a key are one call.
    out.usage_key = e.usage.key;
    if (e.usage.model) out.model = e.usage.model;
    out.input_tokens = e.usage.input;
    out.output_tokens = e.usage.output;
    if (e.usage.cacheWrite) out.cache_write_tokens = e.usage.cacheWrite;
    if (e.usage.cacheRead) out.cache_read_tokens = e.usage.cacheRead;
  }
  for (const [k, v] of Object.entries(e.attrs)) {
    if (TEXT_ATTRS.has(k) || (!includeToolPayloads && TOOL_ATTRS.has(k))) continue;
    // Amplifier logs every record at a level; only the unusual ones say something.
    if (k === 'level' && (v === 'INFO' || v === 'DEBUG')) continue;
    out[snake(k)] = v;
  }
  return out;
}

/** The summary of a tool event when tool payloads are left out (stored summaries preview them). */
export function toolSummary(e: StoredEvent): string {
  const name = e.toolName ?? 'tool';
  const status = e.toolStatus ? `: ${e.toolStatus}` : '';
  return e.kind === 'tool_call' ? `Tool call ${name}${status}` : `Tool result ${name}${status}`;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const sized = (label: string, text: string | undefined): string => (text === undefined ? label : `${label} (${text.length} chars)`);

// ---- Control Plane: a turn carries the user's message and the response.

function planeText(e: StoredEvent): boolean {
  return e.type === 'TURN_RECORDED';
}

function planeSummary(e: StoredEvent, line: Obj | null): string {
  const m = asObj(line?.metadata);
  const turn = `Turn ${e.turn ?? '?'} recorded`;
  const user = str(m?.user_message);
  const response = str(m?.response);
  if (user === undefined || response === undefined) return turn;
  return `${turn} (user ${user.length} chars, response ${response.length} chars)`;
}

// ---- Claude Code: prompts, assistant text and thinking are content blocks; queued prompts too.

const WRAPPER_LABELS: Record<string, string> = {
  command: 'Slash command',
  'local-command-output': 'Local command output',
  caveat: 'Local command caveat',
  'bash-input': 'Shell command',
  'bash-output': 'Shell output',
  'task-notification': 'Task notification',
  'system-reminder': 'System reminder',
  'compact-summary': 'Compaction summary',
  meta: 'Meta message',
  empty: 'Empty message',
};

function claudeText(e: StoredEvent): boolean {
  if (e.type === 'queue-operation') return true;
  // An interruption marker is Claude Code's own words, and the one thing a reader must see.
  if (e.kind === 'user_message') return e.attrs.wrapper !== 'interrupt';
  return e.kind === 'assistant_message' || e.kind === 'thinking';
}

function claudeSummary(e: StoredEvent, line: Obj | null): string {
  if (e.type === 'queue-operation') {
    const op = str(e.attrs.operation) ?? '';
    const content = str(line?.content);
    return content === undefined ? `Queue ${op}`.trim() : sized(`Queue ${op}`.trim(), content);
  }
  const block = line ? claudeBlockOf(e, line) : undefined;
  const text = str(block?.text) ?? str(block?.thinking);
  if (e.kind === 'user_message') {
    const wrapper = str(e.attrs.wrapper);
    return sized(wrapper ? (WRAPPER_LABELS[wrapper] ?? `${wrapper} text`) : 'User message', text);
  }
  if (e.kind === 'thinking') return sized(block?.type === 'redacted_thinking' ? 'Redacted thinking' : 'Thinking', text);
  return sized('Assistant text', text);
}

// ---- Amplifier: transcript messages, and the events that log prompts and responses.

const AMPLIFIER_TEXT_EVENTS = new Set(['prompt:submit', 'prompt:complete', 'content_block:end']);
const AMPLIFIER_TEXT_KINDS = new Set(['user_message', 'assistant_message', 'thinking', 'system']);

function amplifierText(e: StoredEvent): boolean {
  if (e.ledger !== 'events') return AMPLIFIER_TEXT_KINDS.has(e.kind);
  // A streamed tool_use block names its tool; only text and thinking blocks are conversation.
  if (e.type === 'content_block:end') return e.attrs.blockType === undefined || /text|thinking/.test(String(e.attrs.blockType));
  return AMPLIFIER_TEXT_EVENTS.has(e.type);
}

/** Text of a transcript message's content (a string or text blocks). */
function messageText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content.map((b) => str(asObj(b)?.text) ?? '').join('');
}

function amplifierSummary(e: StoredEvent, line: Obj | null): string {
  if (e.ledger === 'events') {
    const data = asObj(line?.data);
    if (e.type === 'prompt:submit') return sized('Prompt submitted', line ? str(data?.prompt) : undefined);
    if (e.type === 'prompt:complete') {
      const response = str(data?.response);
      return response === undefined ? 'Prompt complete' : `Prompt complete (response ${response.length} chars)`;
    }
    const block = asObj(data?.block);
    return sized(`${str(block?.type) ?? str(e.attrs.blockType) ?? 'Content'} block ended`, str(block?.text));
  }
  if (e.kind === 'user_message') return sized('User message', line ? messageText(line.content) : undefined);
  if (e.kind === 'system') {
    const label = e.attrs.systemReminder === true ? 'System reminder' : `${e.actor ?? 'system'} message`;
    return sized(label, line ? messageText(line.content) : undefined);
  }
  const block = line ? amplifierBlockOf(e, line) : undefined;
  const text = typeof block === 'string' ? block : (str(block?.text) ?? str(block?.thinking));
  return sized(e.kind === 'thinking' ? 'Thinking' : 'Assistant text', text);
}

/** True when the stored summary of `e` is conversation text, which compact mode replaces. */
export function isTextEvent(format: Format, e: StoredEvent): boolean {
  switch (format) {
    case 'control-plane':
      return planeText(e);
    case 'claude-code':
      return claudeText(e);
    case 'amplifier':
      return amplifierText(e);
    default:
      return false;
  }
}

/** A summary of a text event without its text: what it is and how long (sizes need the line). */
export function textFreeSummary(format: Format, e: StoredEvent, line: Obj | null): string {
  switch (format) {
    case 'control-plane':
      return planeSummary(e, line);
    case 'claude-code':
      return claudeSummary(e, line);
    case 'amplifier':
      return amplifierSummary(e, line);
    default:
      return e.summary;
  }
}
