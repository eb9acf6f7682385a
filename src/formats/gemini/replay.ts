// Gemini events → replay entries (export_session replay and markdown). Prompts as typed (a slash
// command as its command, not the prompt the CLI expanded it into), replies verbatim, thoughts
// flagged, tool calls and results summarised by family, delegate_to_agent as a sub-agent launch;
// token records, the header and $set bookkeeping are left out.

import { cutText, note } from '../shared/replay-text.js';
import { summariseArgs, summariseResult, toolFamily, type Obj } from '../shared/tool-summary.js';
import type { StoredEvent } from '../importer.js';
import type { ReplayMapper } from '../profile.js';
import { asObj, asString, partsText } from './json.js';
import { messageOf, toolCallOf, toolResultText } from './payload.js';
import { genericToolName } from './tool-names.js';

const LINE_KINDS = new Set(['user_message', 'assistant_message', 'thinking', 'tool_call', 'tool_result']);
const FINDINGS_CHARS = 300;

function thoughtText(e: StoredEvent, message: Obj): string {
  const index = typeof e.attrs.thoughtIndex === 'number' ? e.attrs.thoughtIndex : -1;
  const t = asObj(Array.isArray(message.thoughts) ? message.thoughts[index] : undefined);
  const subject = asString(t?.subject) ?? '';
  const description = asString(t?.description) ?? '';
  return [subject, description].filter((s) => s.trim() !== '').join('\n');
}

function toolCall(e: StoredEvent, call: Obj | undefined, limit: number): Obj {
  const name = e.toolName ?? asString(call?.name) ?? 'unknown';
  const args = asObj(call?.args);
  if (toolFamily(genericToolName(name)) === 'task') {
    const entry: Obj = { r: 'agent', ...(e.ids.agent !== undefined && { agent: e.ids.agent }) };
    Object.assign(entry, cutText(asString(args?.objective) ?? asString(args?.prompt) ?? '', limit, 'task'));
    const type = asString(args?.agent_name);
    if (type !== undefined) entry.type = type;
    return entry;
  }
  return { r: 'assistant', tool: name, args: summariseArgs(genericToolName(name), args) };
}

function toolResult(e: StoredEvent, call: Obj | undefined): Obj {
  const name = e.toolName ?? 'unknown';
  const text = toolResultText(call) ?? '';
  const isError = e.toolStatus === 'error';
  if (toolFamily(genericToolName(name)) === 'task') {
    const entry: Obj = { r: 'agent_result', ...(e.ids.agent !== undefined && { agent: e.ids.agent }), status: isError ? 'error' : 'completed', size: Buffer.byteLength(text) };
    if (text.trim() !== '') entry.msg = text.trim().slice(0, FINDINGS_CHARS);
    return entry;
  }
  return { r: 'user', tool_result: name, status: isError ? 'error' : 'success', ...summariseResult(genericToolName(name), { text, isError }) };
}

export const geminiMapper: ReplayMapper = {
  needsLine: (e) => LINE_KINDS.has(e.kind),
  map(e, line, cx) {
    const message = line ? messageOf(e, line) : undefined;
    if (LINE_KINDS.has(e.kind) && !message) {
      // The line could not be read (too large, or a legacy document whose lines are not records):
      // the stored summary stands in.
      if (e.kind === 'thinking') return [{ r: 'assistant', thinking: true }];
      if (e.kind === 'user_message') return [e.attrs.nonHuman === true ? note(e.summary) : { r: 'user', ...cutText(e.summary, cx.userTextLimit) }];
      if (e.kind === 'assistant_message') return [{ r: 'assistant', m: e.summary }];
      if (e.kind === 'tool_call') return [{ r: 'assistant', tool: e.toolName ?? 'unknown', args: {} }];
      return [{ r: 'user', tool_result: e.toolName ?? 'unknown', status: e.toolStatus === 'error' ? 'error' : 'success' }];
    }
    switch (e.kind) {
      case 'user_message': {
        if (e.attrs.nonHuman === true) return [note(e.summary)];
        const typed = partsText(message!.displayContent);
        const text = typed.trim() !== '' ? typed : partsText(message!.content);
        return [{ r: 'user', ...cutText(text, cx.userTextLimit), ...(typeof e.attrs.command === 'string' && { kind: 'command' }) }];
      }
      case 'assistant_message':
        return [{ r: 'assistant', m: partsText(message!.content) }];
      case 'thinking':
        return [{ r: 'assistant', thinking: true, ...(cx.detail && { text: thoughtText(e, message!) }) }];
      case 'tool_call':
        return [toolCall(e, toolCallOf(e, message), cx.userTextLimit)];
      case 'tool_result':
        return [toolResult(e, toolCallOf(e, message))];
      case 'error':
        return [note(e.summary, true)];
      case 'warning':
      case 'compaction':
        return [note(e.summary)];
      case 'system':
        return e.attrs.cancelled === true || e.type === '$rewindTo' || e.type === 'info' ? [note(e.summary)] : [];
      default:
        return [];
    }
  },
};
