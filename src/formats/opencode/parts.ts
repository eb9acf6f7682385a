// What each OpenCode part means on the timeline. Parts are the content of a message (OpenCode's
// message-v2.ts): text (a prompt or a reply, by the message's role), reasoning, tool (one call,
// its state moving pending → running → completed | error in place), file and agent mentions,
// subtask, retry, compaction, patch (files a step changed), and bookkeeping with nothing to show
// (step-start, step-finish — whose tokens repeat the message's —, snapshot).

import type { EventInput } from '../importer.js';
import { asNumber, asObject, asString, clip, msToIso, nonEmpty, type Obj } from './json.js';
import type { MessageContext } from './message-context.js';
import type { PartRecord } from './records.js';

/** Part types with nothing to show: kept as evidence only. */
const QUIET = new Set(['step-start', 'step-finish', 'snapshot']);
/** Every part type OpenCode writes; another is shown as `other` and reported once per file. */
export const KNOWN_PART_TYPES = new Set([
  'text', 'reasoning', 'tool', 'file', 'agent', 'subtask', 'retry', 'compaction', 'patch', 'step-start', 'step-finish', 'snapshot',
]);

/** A short, bounded preview of a tool's input: the argument that says most, else its JSON head. */
function inputPreview(input: Obj | undefined): string {
  if (!input) return '';
  for (const key of ['command', 'filePath', 'path', 'pattern', 'url', 'description', 'query']) {
    const value = asString(input[key]);
    if (value) return clip(value, 200);
  }
  const head: string[] = [];
  for (const [k, v] of Object.entries(input).slice(0, 4)) head.push(`${k}=${typeof v === 'string' ? clip(v, 60) : typeof v}`);
  return head.join(' ');
}

function toolEvents(part: Obj, at: string | undefined, ids: { message?: string }, emit: (e: EventInput) => void): void {
  const tool = asString(part.tool) ?? 'unknown';
  const callId = nonEmpty(part.callID);
  const state = asObject(part.state) ?? {};
  const status = asString(state.status) ?? 'unknown';
  const time = asObject(state.time);
  const metadata = asObject(state.metadata);
  const child = nonEmpty(metadata?.sessionId);
  const input = asObject(state.input);
  const title = asString(state.title);
  emit({
    part: 0,
    timestamp: msToIso(time?.start) ?? at,
    type: 'tool',
    kind: 'tool_call',
    actor: 'assistant',
    toolName: tool,
    ids: { ...ids, ...(callId ? { toolCall: callId } : {}), ...(child ? { agent: child } : {}) },
    summary: `${tool}: ${clip(title || inputPreview(input), 300)}`,
    attrs: { status, ...(child ? { childSessionId: child } : {}) },
  });
  if (status !== 'completed' && status !== 'error') return;
  const failed = status === 'error';
  emit({
    part: 1,
    timestamp: msToIso(time?.end) ?? msToIso(time?.start) ?? at,
    type: 'tool.result',
    kind: 'tool_result',
    actor: 'tool',
    toolName: tool,
    toolStatus: failed ? 'error' : 'ok',
    ids: { ...ids, ...(callId ? { toolCall: callId } : {}), ...(child ? { agent: child } : {}) },
    summary: clip((failed ? asString(state.error) : asString(state.output)) ?? ''),
    attrs: { status, ...(child ? { childSessionId: child } : {}), ...(asNumber(time?.compacted) ? { compacted: true } : {}) },
  });
}

/**
 * The events of one part. `message` is its message (role and time) when known; a text part of an
 * unknown message is shown as `other`. Returns false for a part type OpenCode does not write.
 */
export function partEvents(rec: PartRecord, message: MessageContext | undefined, emit: (e: EventInput) => void): boolean {
  const part = rec.data;
  const type = asString(part.type) ?? 'unknown';
  const ids = rec.messageId ? { message: rec.messageId } : {};
  const partTime = asObject(part.time);
  const at = msToIso(partTime?.start) ?? msToIso(rec.created) ?? msToIso(message?.created);
  if (QUIET.has(type)) return true;
  switch (type) {
    case 'text': {
      if (part.ignored === true) return true;
      const text = asString(part.text) ?? '';
      const synthetic = part.synthetic === true;
      const role = message?.role ?? 'unknown';
      if (role === 'unknown') {
        emit({ timestamp: at, type: 'text', kind: 'other', ids, summary: clip(text), attrs: { role } });
        return true;
      }
      emit({
        timestamp: at,
        type: 'text',
        kind: role === 'user' ? 'user_message' : 'assistant_message',
        actor: role,
        ids,
        summary: clip(text),
        text,
        // Text OpenCode writes into the user's message itself (file contents, tool echoes) is not a human turn.
        attrs: synthetic ? { synthetic: true, ...(role === 'user' ? { nonHuman: true } : {}) } : {},
      });
      return true;
    }
    case 'reasoning':
      emit({ timestamp: at, type: 'reasoning', kind: 'thinking', actor: 'assistant', ids, summary: clip(asString(part.text) ?? '') });
      return true;
    case 'tool':
      toolEvents(part, at, ids, emit);
      return true;
    case 'file':
      emit({ timestamp: at, type: 'file', kind: 'other', actor: message?.role === 'user' ? 'user' : null, ids, summary: `file ${clip(asString(part.filename) ?? asString(part.url) ?? '', 300)}`, attrs: { mime: asString(part.mime) ?? null } });
      return true;
    case 'agent':
      emit({ timestamp: at, type: 'agent', kind: 'other', ids, summary: `@${asString(part.name) ?? 'agent'}` });
      return true;
    case 'subtask':
      emit({ timestamp: at, type: 'subtask', kind: 'subagent_start', ids, summary: clip(asString(part.description) ?? asString(part.prompt) ?? ''), attrs: { agent: asString(part.agent) ?? null } });
      return true;
    case 'retry': {
      const error = asObject(part.error);
      const why = asString(asObject(error?.data)?.message) ?? asString(error?.name) ?? 'provider error';
      emit({ timestamp: msToIso(partTime?.created) ?? at, type: 'retry', kind: 'warning', ids, summary: `retry ${asNumber(part.attempt) ?? '?'}: ${clip(why, 300)}`, attrs: { attempt: asNumber(part.attempt) ?? null } });
      return true;
    }
    case 'compaction':
      emit({ timestamp: at, type: 'compaction', kind: 'compaction', ids, summary: part.auto === true ? 'compaction (automatic)' : 'compaction', attrs: { auto: part.auto === true } });
      return true;
    case 'patch': {
      const files = Array.isArray(part.files) ? part.files.filter((f): f is string => typeof f === 'string') : [];
      emit({ timestamp: at, type: 'patch', kind: 'other', ids, summary: `patch: ${files.length} file${files.length === 1 ? '' : 's'} changed`, attrs: { files: files.slice(0, 50) } });
      return true;
    }
    default:
      emit({ timestamp: at, type, kind: 'other', ids, summary: `${type} part` });
      return false;
  }
}
