// Amplifier events → replay entries (mapping documented in src/tools/export-session/replay.ts). The transcript carries
// the conversation; the hook events ledger repeats it in another shape, so from it only errors,
// warnings and compactions are kept (and models, which the driver reads from usage).

import type { StoredEvent } from '../../core/events.js';
import { amplifierBlockOf } from './payload.js';
import { contentText, cutText, note } from '../shared/replay-text.js';
import type { ReplayContext, ReplayMapper } from '../profile.js';
import { asObj, clip, summariseArgs, summariseResult, toolFamily, type Obj } from '../shared/tool-summary.js';
import { boundDepth } from '../../core/json-depth.js';

const FINDINGS_CHARS = 300;
const PARSE_LIMIT_CHARS = 1024 * 1024;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A tool message's content: Amplifier's ToolResult `{success, output, error}`, usually JSON-encoded. */
function toolOutput(content: unknown): { text: string; structured: Obj | undefined } {
  let value: unknown = content;
  if (typeof content === 'string' && content.trimStart().startsWith('{') && content.length <= PARSE_LIMIT_CHARS) {
    try {
      value = boundDepth(JSON.parse(content));
    } catch {
      value = content;
    }
  }
  const result = asObj(value);
  const output = result && 'output' in result ? result.output : value;
  const out = asObj(output);
  const text = typeof output === 'string' ? output : (str(out?.stdout) ?? contentText(output));
  return { text, structured: out };
}

function toolCall(block: Obj | string | undefined, e: StoredEvent, cx: ReplayContext): Obj {
  const b = asObj(block);
  const name = e.toolName ?? str(b?.name) ?? str(b?.tool) ?? 'unknown';
  const input = b?.input ?? b?.arguments;
  if (toolFamily(name) === 'task') {
    const i = asObj(input) ?? {};
    const task = str(i.instruction) ?? str(i.prompt) ?? str(i.task) ?? str(i.description) ?? '';
    const agent = str(i.agent) ?? str(i.agent_name);
    return { r: 'agent', ...(agent !== undefined && { agent }), ...cutText(task, cx.userTextLimit, 'task') };
  }
  return { r: 'assistant', tool: name, args: summariseArgs(name, input) };
}

function toolResult(e: StoredEvent, line: Obj): Obj {
  const name = e.toolName ?? str(line.name) ?? 'unknown';
  const isError = e.toolStatus === 'error';
  const { text, structured } = toolOutput(line.content);
  if (toolFamily(name) === 'task') {
    const entry: Obj = { r: 'agent_result', status: isError ? 'error' : 'completed', size: Buffer.byteLength(text) };
    if (text.trim() !== '') entry.msg = clip(text.trim(), FINDINGS_CHARS);
    return entry;
  }
  const facts = summariseResult(name, { text, isError, structured });
  // The whole tool message is what was sent back to the model: that is the size that matters.
  facts.size = Buffer.byteLength(typeof line.content === 'string' ? line.content : contentText(line.content));
  if (isError && facts.msg === undefined) facts.msg = clip(e.summary, 200);
  return { r: 'user', tool_result: name, status: isError ? 'error' : 'success', ...facts };
}

function transcriptEntry(e: StoredEvent, line: Obj, cx: ReplayContext): Obj[] {
  switch (e.kind) {
    case 'user_message':
      return [{ r: 'user', ...cutText(contentText(line.content), cx.userTextLimit) }];
    case 'system':
      return e.attrs.systemReminder === true
        ? [{ r: 'user', ...cutText(contentText(line.content), cx.userTextLimit), kind: 'system-reminder' }]
        : [note(clip(e.summary, 200))];
    case 'assistant_message': {
      const block = amplifierBlockOf(e, line);
      const text = typeof block === 'string' ? block : (str(asObj(block)?.text) ?? '');
      return text === '' ? [] : [{ r: 'assistant', m: text }];
    }
    case 'thinking': {
      const block = amplifierBlockOf(e, line);
      const text = typeof block === 'string' ? block : (str(asObj(block)?.thinking) ?? str(asObj(block)?.text) ?? '');
      return [{ r: 'assistant', thinking: true, ...(cx.detail && { text }) }];
    }
    case 'tool_call':
      return [toolCall(amplifierBlockOf(e, line), e, cx)];
    case 'tool_result':
      return [toolResult(e, line)];
    default:
      return [];
  }
}

export const amplifierMapper: ReplayMapper = {
  needsLine: (e) => e.ledger === 'transcript',
  map(e, line, cx) {
    if (e.ledger === 'transcript') {
      if (line) return transcriptEntry(e, line, cx);
      return [{ ...note(e.summary), kind: e.kind, unavailable: true }];
    }
    if (e.ledger !== 'events') return [];
    if (e.kind === 'error') return [note(clip(e.summary, 200), true)];
    if (e.kind === 'warning' || e.kind === 'compaction') return [note(clip(e.summary, 200))];
    return [];
  },
};
