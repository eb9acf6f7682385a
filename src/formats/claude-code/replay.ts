// Claude Code events → replay entries. One event per content block: prompts and assistant text
// verbatim (prompts cut past the limit), thinking flagged, tool calls and results summarised,
// Task / Agent calls as sub-agent launches and results. Progress mirrors, snapshots, queue
// operations, hook and timing notes are left out: they repeat what the entries already say.

import type { StoredEvent } from '../../core/events.js';
import { classifyUserText } from './user-text.js';
import { claudeBlockOf } from './payload.js';
import { contentText, cutText, note } from '../shared/replay-text.js';
import type { ReplayContext, ReplayMapper } from '../profile.js';
import { asObj, clip, summariseArgs, summariseResult, toolFamily, type Obj } from '../shared/tool-summary.js';

const LINE_KINDS = new Set(['user_message', 'assistant_message', 'thinking', 'tool_call', 'tool_result', 'error']);
/** system lines that only time or audit the turn. */
const QUIET_SUBTYPES = new Set(['turn_duration', 'stop_hook_summary']);
const FINDINGS_CHARS = 300;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** cwd / branch changes seen on a message line, as `ctx` entries. */
function contextChanges(line: Obj, cx: ReplayContext): Obj[] {
  const out: Obj[] = [];
  const place = cx.places.get(cx.sessionId) ?? { ...cx.start };
  cx.places.set(cx.sessionId, place);
  const cwd = str(line.cwd);
  const branch = str(line.gitBranch);
  if (cwd !== undefined && cwd !== place.cwd) {
    if (place.cwd !== undefined) out.push({ ctx: 'cwd', v: cwd });
    place.cwd = cwd;
  }
  if (branch !== undefined && branch !== place.branch) {
    if (place.branch !== undefined) out.push({ ctx: 'branch', v: branch });
    place.branch = branch;
  }
  return out;
}

function userText(e: StoredEvent, block: Obj | undefined, cx: ReplayContext): Obj {
  const raw = typeof block?.text === 'string' ? block.text : '';
  const wrapper = typeof e.attrs.wrapper === 'string' ? e.attrs.wrapper : undefined;
  if (wrapper === undefined) return { r: 'user', ...cutText(raw, cx.userTextLimit) };
  // Claude Code's own text (commands, reminders, command output): shown without its tags.
  const shown = classifyUserText(raw, {}).text || e.summary;
  return { r: 'user', ...cutText(shown, cx.userTextLimit), kind: wrapper };
}

function toolCall(block: Obj | undefined, e: StoredEvent, cx: ReplayContext): Obj {
  const name = e.toolName ?? str(block?.name) ?? 'unknown';
  const input = asObj(block?.input);
  if (toolFamily(name) === 'task' && input) {
    const id = e.ids.toolCall;
    const agent = id !== undefined ? cx.agentOfCall.get(id) : undefined;
    const entry: Obj = { r: 'agent', ...(agent !== undefined && { agent }) };
    Object.assign(entry, cutText(str(input.prompt) ?? str(input.description) ?? '', cx.userTextLimit, 'task'));
    const type = str(input.subagent_type);
    if (type !== undefined) entry.type = type;
    return entry;
  }
  return { r: 'assistant', tool: name, args: summariseArgs(name, block?.input) };
}

function toolResult(e: StoredEvent, block: Obj | undefined, line: Obj, cx: ReplayContext): Obj {
  const name = e.toolName ?? 'unknown';
  const text = contentText(block?.content);
  const isError = e.toolStatus === 'error';
  const results = (asObj(line.message)?.content as unknown[] | undefined)?.filter((b) => asObj(b)?.type === 'tool_result') ?? [];
  // toolUseResult describes the line's tool result only when the line holds just one.
  const structured = results.length === 1 ? asObj(line.toolUseResult) : undefined;
  const agent = typeof e.attrs.agentId === 'string' ? e.attrs.agentId : e.ids.toolCall ? cx.agentOfCall.get(e.ids.toolCall) : undefined;
  if (agent !== undefined || toolFamily(name) === 'task') {
    const status = typeof e.attrs.agentStatus === 'string' ? e.attrs.agentStatus : isError ? 'error' : 'completed';
    const entry: Obj = { r: 'agent_result', ...(agent !== undefined && { agent }), status, size: Buffer.byteLength(text) };
    if (text.trim() !== '') entry.msg = clip(text.trim(), FINDINGS_CHARS);
    return entry;
  }
  return { r: 'user', tool_result: name, status: isError ? 'error' : 'success', ...summariseResult(name, { text, isError, structured }) };
}

function assistantText(e: StoredEvent, block: Obj | undefined): Obj {
  const text = typeof block?.text === 'string' ? block.text : e.summary;
  return e.kind === 'error' ? { r: 'assistant', m: text, status: 'error' } : { r: 'assistant', m: text };
}

export const claudeMapper: ReplayMapper = {
  // Task / Agent results and progress lines name the sub-agent each call ran.
  linksAgentCalls: true,
  needsLine: (e) => LINE_KINDS.has(e.kind) && e.type !== 'system',
  map(e, line, cx) {
    const out: Obj[] = line ? contextChanges(line, cx) : [];
    const block = line ? claudeBlockOf(e, line) : undefined;
    const missing = line === undefined && LINE_KINDS.has(e.kind) && e.type !== 'system';
    if (missing) {
      // The raw line could not be read (too large, missing): the stored summary stands in.
      out.push({ ...note(e.summary), kind: e.kind, unavailable: true });
      return out;
    }
    switch (e.kind) {
      case 'user_message':
        out.push(userText(e, block, cx));
        break;
      case 'assistant_message':
        out.push(assistantText(e, block));
        break;
      case 'thinking':
        out.push({ r: 'assistant', thinking: true, ...(cx.detail && { text: str(block?.thinking) ?? str(block?.text) ?? '' }) });
        break;
      case 'tool_call':
        out.push(toolCall(block, e, cx));
        break;
      case 'tool_result':
        out.push(toolResult(e, block, line ?? {}, cx));
        break;
      case 'error':
        out.push(e.type === 'assistant' ? assistantText(e, block) : note(e.summary, true));
        break;
      case 'compaction':
      case 'warning':
        out.push(note(e.summary, false));
        break;
      case 'system':
        if (e.type === 'system' && !QUIET_SUBTYPES.has(String(e.attrs.subtype))) out.push(note(e.summary));
        break;
      default:
        if (e.attrs.block !== undefined && e.type === 'user') out.push({ r: 'user', msg: e.summary });
    }
    return out;
  },
};
