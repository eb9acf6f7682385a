// A runtime session line (records.ts) → events. Every record is one line; an assistant message
// is several events (its text, its thinking, one per tool call), every other record one.
//
// Usage is on the model_call records only, one LLM call each (its key is the line, so a call is
// never counted twice), with the provider's figures: input without cache, cache read, cache
// creation, output. Reasoning tokens are inside output for every provider the runtime speaks
// (OpenAI counts them in completion_tokens, Anthropic in output_tokens), so they are kept as a
// figure beside the call (attrs.reasoningTokens), never added to it.

import type { EventKind } from '../../core/model.js';
import type { EventInput, LineContext, LineParser, ParserOptions, SourceFile } from '../importer.js';
import { asNumber, asObj, asString, clip, previewJson, type Obj } from '../shared/json-values.js';
import { HINDSIGHT_FORMAT, projectSlug } from './layout.js';
import type { RuntimeRecordType } from './records.js';

const RECORD_TYPES: ReadonlySet<string> = new Set<RuntimeRecordType>([
  'session_start',
  'message',
  'model_call',
  'tool_result',
  'span',
  'log',
  'compaction',
  'recovery',
  'handoff',
  'turn_end',
]);

/** Terminal states that end a turn in failure (the session's status is errored after them). */
export const FAILED_STATES: ReadonlySet<string> = new Set(['error', 'budget_exhausted', 'step_limit']);

/** User-message origins that are not the person's words (the harness put them there). */
const NON_HUMAN_ORIGINS: ReadonlySet<string> = new Set(['recovery', 'handoff']);

interface State {
  started: boolean;
  firstChecked: boolean;
  titled: boolean;
  /** Call id → tool name, so a result names its call's tool even when its own name is missing. */
  pending: Record<string, string>;
  unknownTypes: string[];
}

const MAX_PENDING = 500;

function restore(saved: unknown): State {
  const fresh: State = { started: false, firstChecked: false, titled: false, pending: {}, unknownTypes: [] };
  const s = asObj(saved);
  return s ? { ...fresh, ...(s as Partial<State>) } : fresh;
}

const count = (v: unknown): number => {
  const n = asNumber(v);
  return n !== undefined && n >= 0 ? Math.floor(n) : 0;
};

const turnOf = (o: Obj): number | null => {
  const n = asNumber(o.turn);
  return n !== undefined && n >= 0 ? Math.floor(n) : null;
};

/** A tool call's arguments as an object when they are one (or JSON text of one). */
export function callArguments(call: Obj): Obj | undefined {
  const args = call.arguments;
  if (typeof args === 'string') {
    try {
      return asObj(JSON.parse(args));
    } catch {
      return undefined;
    }
  }
  return asObj(args);
}

export function createHindsightParser(file: SourceFile, options: ParserOptions): LineParser {
  const state = restore(options.resumeState);
  const sessionId = file.sessionId!;

  function malformed(ctx: LineContext, what: string): void {
    ctx.defect({ severity: 'error', kind: 'malformed_record', message: `${what}; kept as evidence only` });
  }

  function sessionStart(o: Obj, ctx: LineContext, base: Pick<EventInput, 'timestamp' | 'type'>): void {
    const cwd = asString(o.cwd) || undefined;
    const parent = asString(o.parent_session_id) || undefined;
    const resumedFrom = asString(o.resumed_from) || undefined;
    const mode = asString(o.mode);
    const provider = asString(o.provider);
    const model = asString(o.model);
    const agent = asString(o.agent) || undefined;
    const attrs: Obj = {};
    for (const [k, v] of [
      ['mode', mode],
      ['provider', provider],
      ['model', model],
      ['hindsightVersion', asString(o.hindsight_version)],
      ['resumedFrom', resumedFrom],
    ] as const) {
      if (v) attrs[k] = v;
    }
    if (Array.isArray(o.tools_allowed)) attrs.toolsAllowed = o.tools_allowed.filter((t) => typeof t === 'string').slice(0, 100);
    if (state.started) {
      // A resumed session continues in its own file: a new start, same session.
      ctx.emit({ ...base, kind: 'system', summary: `session resumed${mode ? ` (${mode})` : ''}${model ? ` with ${model}` : ''}`, attrs: { ...attrs, resumed: true } });
      return;
    }
    state.started = true;
    ctx.facts({
      id: sessionId,
      format: HINDSIGHT_FORMAT,
      kind: parent && parent !== sessionId ? 'subagent' : 'root',
      parentId: parent && parent !== sessionId ? parent : null,
      ...(cwd ? { projectPath: cwd, project: projectSlug(cwd) } : {}),
      ...(agent ? { agentName: agent } : {}),
      attrs,
    });
    const who = [agent, mode].filter(Boolean).join(', ');
    ctx.emit({
      ...base,
      kind: 'session_start',
      summary: `Hindsight runtime session${who ? ` (${who})` : ''} in ${cwd ?? 'an unknown folder'}${model ? `, ${provider ? `${provider} ` : ''}${model}` : ''}${parent ? `, handed off from ${parent}` : ''}`,
      attrs: { ...attrs, ...(cwd ? { cwd } : {}), ...(parent ? { parentId: parent } : {}) },
    });
  }

  function message(o: Obj, ctx: LineContext, base: Pick<EventInput, 'timestamp' | 'type'>): void {
    const role = asString(o.role);
    const turn = turnOf(o);
    const type = `message:${role ?? 'unknown'}`;
    if (role === 'system') {
      const text = asString(o.content) ?? '';
      ctx.emit({ ...base, type, kind: 'system', actor: 'system', turn, summary: `system prompt (${text.length} characters)`, attrs: { prompt: true } });
      return;
    }
    if (role === 'user') {
      const text = asString(o.content) ?? '';
      const origin = asString(o.origin) ?? 'person';
      const attrs: Obj = origin === 'person' ? {} : { origin };
      if (NON_HUMAN_ORIGINS.has(origin)) attrs.nonHuman = true;
      // A handoff child opens with its manifest: the task it was given is its title.
      if ((origin === 'person' || origin === 'handoff') && !state.titled && text.trim() !== '') {
        state.titled = true;
        ctx.facts({ id: sessionId, format: HINDSIGHT_FORMAT, title: clip(text.trim().replace(/\s+/g, ' '), 120) });
      }
      ctx.emit({ ...base, type, kind: 'user_message', actor: 'user', turn, summary: clip(text), text, attrs });
      return;
    }
    if (role !== 'assistant') {
      malformed(ctx, `message record with role ${JSON.stringify(o.role ?? null)} (expected system, user or assistant)`);
      return;
    }
    const step = count(o.step);
    const content = asString(o.content) ?? '';
    const reasoning = asString(o.reasoning) ?? '';
    const calls = Array.isArray(o.tool_calls) ? o.tool_calls.map(asObj).filter((c): c is Obj => c !== undefined) : [];
    let part = 0;
    if (reasoning !== '') ctx.emit({ ...base, type, part: part++, kind: 'thinking', actor: 'assistant', turn, summary: clip(reasoning), attrs: { step } });
    if (content !== '' || calls.length === 0) {
      ctx.emit({ ...base, type, part: part++, kind: 'assistant_message', actor: 'assistant', turn, summary: content === '' ? '(empty response)' : clip(content), text: content, attrs: content === '' ? { step, empty: true } : { step } });
    }
    for (const call of calls) {
      const name = asString(call.name) || 'unknown';
      const id = asString(call.id) || undefined;
      if (id) {
        state.pending[id] = name;
        const ids = Object.keys(state.pending);
        if (ids.length > MAX_PENDING) delete state.pending[ids[0]!];
      }
      const args = callArguments(call) ?? call.arguments;
      ctx.emit({ ...base, type: 'tool_call', part: part++, kind: 'tool_call', actor: 'assistant', turn, toolName: name, ...(id ? { ids: { toolCall: id } } : {}), summary: `${name} ${previewJson(args, 200)}`.trim(), attrs: { step } });
    }
  }

  function modelCall(o: Obj, ctx: LineContext, base: Pick<EventInput, 'timestamp' | 'type'>): void {
    const usage = asObj(o.usage);
    if (!usage) {
      malformed(ctx, 'model_call record without a usage object');
      return;
    }
    const model = asString(o.model) || null;
    const input = count(usage.input_tokens);
    const output = count(usage.output_tokens);
    const cacheRead = count(usage.cache_read_tokens);
    const cacheWrite = count(usage.cache_creation_tokens);
    const reasoning = count(usage.reasoning_tokens);
    const cost = asNumber(o.cost_usd);
    const attrs: Obj = { step: count(o.step), reasoningTokens: reasoning, durationMs: count(o.duration_ms) };
    for (const [k, v] of [
      ['provider', asString(o.provider)],
      ['usageSource', asString(o.usage_source)],
      ['finishReason', asString(o.finish_reason)],
      ['responseId', asString(o.response_id)],
    ] as const) {
      if (v) attrs[k] = v;
    }
    if (cost !== undefined && cost >= 0) attrs.costUsd = cost;
    const estimated = attrs.usageSource === 'estimate' ? ' (estimated)' : '';
    ctx.emit({
      ...base,
      kind: 'llm_call',
      actor: 'assistant',
      turn: turnOf(o),
      usage: { key: `L${ctx.lineNumber}`, model, input, output, cacheRead, cacheWrite },
      ...(typeof attrs.responseId === 'string' ? { ids: { request: attrs.responseId } } : {}),
      summary: `${model ?? 'unknown model'}: in ${input} + cache read ${cacheRead} + cache write ${cacheWrite}, out ${output} (reasoning ${reasoning})${estimated}`,
      attrs,
    });
  }

  function toolResult(o: Obj, ctx: LineContext, base: Pick<EventInput, 'timestamp' | 'type'>): void {
    const callId = asString(o.call_id) || undefined;
    const name = asString(o.name) || (callId && state.pending[callId]) || 'unknown';
    if (callId) delete state.pending[callId];
    const failed = o.is_error === true;
    const content = asString(o.content) ?? previewJson(o.content, 300);
    ctx.emit({
      ...base,
      kind: 'tool_result',
      actor: 'tool',
      turn: turnOf(o),
      toolName: name,
      toolStatus: failed ? 'error' : 'ok',
      ...(callId ? { ids: { toolCall: callId } } : {}),
      summary: `${name} ${failed ? 'failed' : 'ok'}: ${clip(content.replace(/\s+/g, ' ').trim(), 200)}`,
      attrs: { step: count(o.step), durationMs: count(o.duration_ms) },
    });
  }

  function other(o: Obj, type: string, ctx: LineContext, base: Pick<EventInput, 'timestamp' | 'type'>): void {
    const turn = turnOf(o);
    switch (type) {
      case 'span': {
        const kind = asString(o.kind) ?? 'span';
        const ms = count(o.duration_ms);
        ctx.emit({ ...base, type: `span:${kind}`, kind: 'system', turn, summary: `${kind} span ${asString(o.name) ?? ''} ${ms} ms`.replace(/\s+/g, ' '), attrs: { span: true, spanKind: kind, spanId: asString(o.span_id) ?? null, parentSpanId: asString(o.parent_span_id) ?? null, durationMs: ms } });
        return;
      }
      case 'log': {
        const level = asString(o.level) ?? 'info';
        const kind: EventKind = level === 'error' ? 'error' : level === 'warn' ? 'warning' : 'system';
        ctx.emit({ ...base, type: `log:${level}`, kind, turn, summary: clip(asString(o.message) ?? ''), attrs: { level } });
        return;
      }
      case 'compaction': {
        const stage = asString(o.stage) ?? String(o.stage ?? '?');
        ctx.emit({
          ...base,
          kind: 'compaction',
          turn,
          summary: `context compacted (stage ${stage}): ${count(o.tokens_before)} → ${count(o.tokens_after)} tokens, ${count(o.messages_before)} → ${count(o.messages_after)} messages`,
          attrs: { stage, tokensBefore: count(o.tokens_before), tokensAfter: count(o.tokens_after) },
        });
        return;
      }
      case 'recovery': {
        const scenario = asString(o.scenario) ?? 'unknown';
        const recovered = o.recovered === true;
        ctx.emit({ ...base, kind: 'warning', turn, summary: `recovery from ${scenario} (attempt ${count(o.attempt)}): ${recovered ? 'recovered' : 'not recovered'}`, attrs: { scenario, attempt: count(o.attempt), recovered } });
        return;
      }
      case 'handoff': {
        const child = asString(o.child_session_id) || undefined;
        const reason = asString(o.reason) ?? '';
        ctx.emit({ ...base, kind: 'subagent_start', turn, ...(child ? { ids: { agent: child } } : {}), summary: `handed off to ${child ?? 'a child session'}${reason ? `: ${clip(reason, 200)}` : ''}`, attrs: { ...(child ? { agentId: child } : {}), reason } });
        return;
      }
      case 'turn_end': {
        const terminal = asString(o.terminal_state) ?? 'unknown';
        const error = asString(o.error);
        const kind: EventKind = FAILED_STATES.has(terminal) ? 'error' : terminal === 'aborted' ? 'warning' : 'system';
        const figures = `${count(o.steps)} steps, ${count(o.tool_calls)} tool calls`;
        const detail = error ? `: ${clip(error, 400)}` : '';
        ctx.emit({ ...base, kind, turn, summary: `turn ${turn ?? '?'} ended ${terminal} (${figures})${detail}`, attrs: { terminalState: terminal, steps: count(o.steps), toolCalls: count(o.tool_calls) } });
        return;
      }
    }
  }

  return {
    line(o, ctx) {
      const type = asString(o.type);
      if (!state.firstChecked) {
        state.firstChecked = true;
        if (type !== 'session_start') ctx.defect({ severity: 'warning', kind: 'missing_session_start', message: `the session file does not open with session_start (first record: ${type ?? 'untyped'}); its head may be missing` });
      }
      if (type === undefined) {
        ctx.defect({ severity: 'error', kind: 'not_a_runtime_record', message: 'JSON object without a string "type": not a Hindsight runtime record; kept as evidence only' });
        return;
      }
      const named = asString(o.session_id);
      if (named !== undefined && named !== sessionId) {
        ctx.defect({ severity: 'warning', kind: 'session_id_mismatch', message: `record names session ${named}, but the file is session ${sessionId}'s; read as ${sessionId}'s` });
      }
      const timestamp = asString(o.ts) ?? null;
      const base = { timestamp, type };
      if (!RECORD_TYPES.has(type)) {
        if (!state.unknownTypes.includes(type) && state.unknownTypes.length < 50) {
          state.unknownTypes.push(type);
          ctx.defect({ severity: 'info', kind: 'unknown_record_type', message: `record type "${type}" is not one this importer knows; kept as an 'other' event (first of its kind in this file)` });
        }
        ctx.emit({ ...base, kind: 'other', turn: turnOf(o), summary: type, attrs: {} });
        return;
      }
      switch (type) {
        case 'session_start':
          return sessionStart(o, ctx, base);
        case 'message':
          return message(o, ctx, base);
        case 'model_call':
          return modelCall(o, ctx, base);
        case 'tool_result':
          return toolResult(o, ctx, base);
        default:
          return other(o, type, ctx, base);
      }
    },
    hugeLine(head, ctx) {
      // Only tool results and pasted prompts grow this large; keep where and what it was.
      const timestamp = /"ts"\s*:\s*"([^"]{1,64})"/.exec(head)?.[1] ?? null;
      const type = /"type"\s*:\s*"([a-z_]{1,40})"/.exec(head)?.[1] ?? 'unknown';
      const callId = /"call_id"\s*:\s*"([^"]{1,200})"/.exec(head)?.[1];
      if (type === 'tool_result' && callId) {
        // A huge result still answers its call (else the call would look unanswered).
        const name = state.pending[callId] ?? 'unknown';
        delete state.pending[callId];
        const failed = /"is_error"\s*:\s*true/.test(head);
        ctx.emit({ timestamp, type, kind: 'tool_result', actor: 'tool', toolName: name, toolStatus: failed ? 'error' : 'ok', ids: { toolCall: callId }, summary: `${name} result of ${ctx.byteLength} bytes (only its head was read)`, attrs: { huge: true, bytes: ctx.byteLength } });
        return;
      }
      ctx.emit({ timestamp, type, kind: 'other', summary: `${type} (${ctx.byteLength} bytes; only its head was read)`, attrs: { huge: true, bytes: ctx.byteLength } });
    },
    snapshot() {
      return JSON.parse(JSON.stringify(state)) as unknown;
    },
  };
}
