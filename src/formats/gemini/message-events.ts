// One Gemini message record → events. Shared by both layouts: a JSONL line holding a message,
// and each element of a legacy document's `messages[]`.
//
//   type user     → user_message (nonHuman when it only carries function responses, as the
//                   CLI's "System: Please continue." turns do); displayContent — what the person
//                   typed, e.g. `/init` — is its text when present
//   type gemini   → thinking per thought, assistant_message for its text, tool_call and
//                   tool_result per entry of toolCalls, llm_call carrying the reply's usage
//   type info     → system ("Request cancelled." marks a cancellation)
//   type error    → error;  type warning → warning;  anything else → other (reported once)
//
// A message written again under its id emits only what is new (chat-state.ts).

import type { EventInput, LineContext } from '../importer.js';
import { emittedOf, firstReport, type ChatState } from './chat-state.js';
import { asObj, asString, clip, nonEmpty, onlyFunctionResponses, partsOf, partsText, preview, type Obj } from './json.js';
import { argumentPaths, provenProjectPath } from './path-proof.js';
import { replyUsage } from './tokens.js';

/** Tool call statuses after which the call has its outcome (CoreToolCallStatus in gemini-cli). */
const FINAL_STATUSES = new Set(['success', 'error', 'cancelled']);
const CANCELLED_INFO_RE = /^(?:Request cancelled|User cancelled the request)\.?$/;

/** Where the record sits, for events (part numbers) and findings (what and where). */
export interface MessageSite {
  ctx: LineContext;
  /** The next part number on this line (a document's messages all sit on its line 1). */
  part: number;
  /** `messages[3]` in a document; '' on a JSONL line (the finding's line says where). */
  where: string;
  /** Index in a document's messages[] (tools find the message again with it). */
  index?: number;
  /** ccusage gives a reply without a model the last model seen in a JSONL file, not in a document. */
  modelHint: boolean;
}

function emit(site: MessageSite, state: ChatState, e: EventInput): void {
  const attrs = site.index === undefined ? e.attrs : { ...e.attrs, messageIndex: site.index };
  site.ctx.emit({ ...e, part: site.part++, turn: state.turn, attrs });
}

function problem(site: MessageSite, message: string): void {
  site.ctx.defect({ severity: 'warning', kind: 'unexpected_field', message: site.where ? `${site.where}: ${message}` : message });
}

/** Fields of a known type that hold the wrong JSON type: reported, and read as absent. */
function checkShapes(msg: Obj, site: MessageSite): void {
  const id = asString(msg.id);
  const expect = (key: string, ok: (v: unknown) => boolean, what: string) => {
    if (msg[key] !== undefined && msg[key] !== null && !ok(msg[key])) {
      problem(site, `message ${clip(id ?? '?', 60)} has ${key} that is not ${what}; it was ignored`);
    }
  };
  const isContent = (v: unknown) => typeof v === 'string' || Array.isArray(v) || asObj(v) !== undefined;
  expect('content', isContent, 'text or a list of parts');
  expect('displayContent', isContent, 'text or a list of parts');
  expect('toolCalls', Array.isArray, 'a list');
  expect('thoughts', Array.isArray, 'a list');
  expect('tokens', (v) => asObj(v) !== undefined, 'an object');
  expect('timestamp', (v) => typeof v === 'string', 'a string');
}

function userEvents(msg: Obj, id: string, ts: string | undefined, site: MessageSite, state: ChatState): void {
  const done = emittedOf(state, id);
  if (done.text) return;
  done.text = true;
  const typed = partsText(msg.displayContent);
  const sent = partsText(msg.content);
  const nonHuman = onlyFunctionResponses(msg.displayContent) || (sent === '' && onlyFunctionResponses(msg.content));
  if (!nonHuman) state.turn++;
  const text = typed.trim() !== '' ? typed : sent;
  const attrs: Obj = {};
  if (nonHuman) attrs.nonHuman = true;
  if (typed.trim() !== '' && typed !== sent) attrs.expanded = true; // a command the CLI expanded into a prompt
  if (typed.trimStart().startsWith('/')) attrs.command = typed.trim().split(/\s/)[0];
  emit(site, state, {
    timestamp: ts,
    type: 'user',
    kind: 'user_message',
    actor: nonHuman ? 'system' : 'user',
    ids: { message: id },
    summary: clip(nonHuman && text === '' ? 'function response' : text),
    text: nonHuman ? undefined : text,
    attrs,
  });
}

function toolResultSummary(call: Obj): string {
  const display = asString(call.resultDisplay);
  if (display) return clip(display);
  for (const part of partsOf(call.result)) {
    const response = asObj(asObj(asObj(part)?.functionResponse)?.response);
    if (!response) continue;
    const text = asString(response.output) ?? asString(response.error);
    return clip(text ?? preview(response, 300));
  }
  return asString(call.status) ?? '';
}

function toolEvents(msg: Obj, id: string, ts: string | undefined, site: MessageSite, state: ChatState, done: ReturnType<typeof emittedOf>): void {
  if (!Array.isArray(msg.toolCalls)) return;
  msg.toolCalls.forEach((raw, i) => {
    const call = asObj(raw);
    const callId = nonEmpty(call?.id);
    const name = nonEmpty(call?.name);
    if (!call || !callId || !name) {
      problem(site, `message ${clip(id, 60)} toolCalls[${i}] has no ${!call ? 'object' : !callId ? 'id' : 'name'}; it was skipped`);
      return;
    }
    const at = asString(call.timestamp) ?? ts;
    const ids = { message: id, toolCall: callId, ...(nonEmpty(call.agentId) ? { agent: nonEmpty(call.agentId) } : {}) };
    if (!done.calls.includes(callId)) {
      done.calls.push(callId);
      const attrs: Obj = {};
      const display = nonEmpty(call.displayName);
      if (display && display !== name) attrs.displayName = display;
      emit(site, state, { timestamp: at, type: 'tool_call', kind: 'tool_call', actor: 'assistant', ids, toolName: name, summary: `${name} ${preview(call.args)}`, attrs });
      provePath(site, state, argumentPaths(call.args));
    }
    const status = asString(call.status);
    if (status && FINAL_STATUSES.has(status) && !done.results.includes(callId)) {
      done.results.push(callId);
      emit(site, state, {
        timestamp: at,
        type: 'tool_result',
        kind: 'tool_result',
        actor: 'tool',
        ids,
        toolName: name,
        toolStatus: status === 'success' ? 'ok' : 'error',
        summary: toolResultSummary(call),
        attrs: { status },
      });
    }
  });
}

function geminiEvents(msg: Obj, id: string, ts: string | undefined, site: MessageSite, state: ChatState): void {
  const done = emittedOf(state, id);
  const named = nonEmpty(msg.model);
  if (named && site.modelHint) state.lastModel = named;
  const model = named ?? (site.modelHint ? state.lastModel : null) ?? null;
  const modelAttr: Obj = model ? { model } : {};
  const thoughts = Array.isArray(msg.thoughts) ? msg.thoughts : [];
  for (let i = done.thoughts; i < thoughts.length; i++) {
    const t = asObj(thoughts[i]);
    const subject = asString(t?.subject)?.trim() ?? '';
    const description = asString(t?.description)?.trim() ?? '';
    emit(site, state, {
      timestamp: asString(t?.timestamp) ?? ts,
      type: 'thought',
      kind: 'thinking',
      actor: 'assistant',
      ids: { message: id },
      summary: clip(subject && description ? `${subject}: ${description}` : subject || description),
      attrs: { ...modelAttr, thoughtIndex: i },
    });
  }
  done.thoughts = Math.max(done.thoughts, thoughts.length);
  const text = partsText(msg.content);
  if (!done.text && text.trim() !== '') {
    done.text = true;
    emit(site, state, { timestamp: ts, type: 'gemini', kind: 'assistant_message', actor: 'assistant', ids: { message: id }, summary: clip(text), text, attrs: { ...modelAttr } });
  }
  toolEvents(msg, id, ts, site, state, done);
  const reply = replyUsage(msg.tokens, id, model);
  if (reply) {
    const sig = `${reply.usage.input}/${reply.usage.output}/${reply.usage.cacheRead}/${reply.usage.reasoning ?? 0}/${reply.usage.model}`;
    if (sig !== done.usage) {
      done.usage = sig;
      const u = reply.usage;
      emit(site, state, {
        timestamp: ts,
        type: 'tokens',
        kind: 'llm_call',
        actor: 'assistant',
        ids: { message: id },
        usage: u,
        summary: `${model ?? 'unknown model'}: ${u.input + u.cacheRead} in (${u.cacheRead} cached), ${reply.attrs.candidates} out, ${reply.attrs.thoughts} thinking`,
        attrs: { ...modelAttr, ...reply.attrs },
      });
    }
  }
}

/** Facts once the chat proves its project path (path-proof.ts). */
export function provePath(site: MessageSite, state: ChatState, paths: readonly string[]): void {
  if (state.projectPath !== null || state.projectHash === null || paths.length === 0) return;
  const proven = provenProjectPath(paths, state.projectHash);
  if (!proven || !site.ctx.file.sessionId) return;
  state.projectPath = proven;
  site.ctx.facts({ id: site.ctx.file.sessionId, format: 'gemini', projectPath: proven });
}

/** Emit the events of one message record (an object with a string `id`). */
export function messageEvents(msg: Obj, site: MessageSite, state: ChatState): void {
  const id = asString(msg.id)!;
  checkShapes(msg, site);
  const ts = asString(msg.timestamp);
  const type = asString(msg.type);
  switch (type) {
    case 'user':
      return userEvents(msg, id, ts, site, state);
    case 'gemini':
      return geminiEvents(msg, id, ts, site, state);
    case 'info':
    case 'error':
    case 'warning': {
      const done = emittedOf(state, id);
      if (done.text) return;
      done.text = true;
      const text = partsText(msg.content);
      const cancelled = type === 'info' && CANCELLED_INFO_RE.test(text.trim());
      emit(site, state, {
        timestamp: ts,
        type,
        kind: type === 'info' ? 'system' : type,
        actor: 'system',
        ids: { message: id },
        summary: clip(text || type),
        attrs: cancelled ? { cancelled: true } : {},
      });
      return;
    }
    default: {
      const label = type ?? (msg.type === undefined ? 'none' : typeof msg.type);
      if (firstReport(state, `type:${label}`)) {
        site.ctx.defect({
          severity: 'info',
          kind: 'unknown_message_type',
          message: `${site.where ? `${site.where}: ` : ''}message type ${JSON.stringify(clip(label, 60))} is not one Gemini CLI writes (user, gemini, info, error, warning); kept as an 'other' event (reported once per file)`,
        });
      }
      emit(site, state, { timestamp: ts, type: type ?? 'message', kind: 'other', ids: { message: id }, summary: clip(partsText(msg.content) || label), attrs: {} });
    }
  }
}
