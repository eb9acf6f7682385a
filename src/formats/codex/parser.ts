// A rollout line → events. Lines are `{timestamp, type, payload}` records (RolloutItem):
// session_meta, turn_context, response_item, event_msg, compacted (and newer kinds kept as
// `other`). Rollouts from before that wrapper (Codex < 0.2x) hold the response items themselves
// plus `record_type: state` lines; they are read too.
//
// Mirrors are counted once: in a wrapped rollout the person's prompt is the `event_msg`
// user_message (the `response_item` user message is the copy sent to the model, together with
// harness context), and the answer is the `response_item` assistant message (the `event_msg`
// agent_message is the copy shown in the UI). A copy becomes a `system` event marked `mirrorOf`.

import type { EventInput, LineContext, LineParser, ParserOptions, SourceFile } from '../importer.js';
import { asObj, asString, clip, contentText, nonEmpty, type Obj } from './json.js';
import { projectSlug } from './layout.js';
import { BURST_PAUSE_MS, rewrittenBurstStart } from './replay.js';
import { callPreview, outcomeOf, toolNameOf } from './tools.js';
import { badCountFields, callOf, eventUsage, modelOf, resolveModel, type ModelState, type RawUsage } from './usage.js';

/** Response item kinds that are a tool call awaiting an output record. */
const CALL_TYPES = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);
const OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output']);
/** Response item kinds a pre-wrapper rollout writes as whole lines. */
const LEGACY_ITEM_TYPES = new Set(['message', 'reasoning', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output', 'local_shell_call', 'web_search_call']);
const KNOWN_RECORDS = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);
/** Event messages that copy a record written elsewhere in the rollout, by the kind of that record. */
const EVENT_MIRRORS: Record<string, string> = {
  agent_message: 'assistant_message',
  agent_reasoning: 'thinking',
  agent_reasoning_raw_content: 'thinking',
  exec_command_end: 'tool_result',
  patch_apply_end: 'tool_result',
  mcp_tool_call_end: 'tool_result',
  web_search_end: 'tool_call',
  view_image_tool_call: 'tool_call',
  context_compacted: 'compaction',
};
/** Harness text Codex puts in user-role messages (environment, instructions): never the person's words. */
const CONTEXT_OPENERS = /^\s*(?:<([a-z_ ]+)>|# AGENTS\.md instructions)/i;
/** Pending call ids remembered across lines (a result names its call's tool); older ones are forgotten. */
const MAX_PENDING = 500;

interface State {
  metaSeen: boolean;
  firstChecked: boolean;
  /** Rollout written with the {type, payload} wrapper (prompts recorded as event_msg). */
  wrapped: boolean;
  fork: boolean;
  model: ModelState;
  previous: RawUsage | null;
  serviceTier: string | null;
  /** Replay of a fork: 'unknown' until the first call, then the last skipped call's time (ms) or 'done'. */
  burst: 'unknown' | 'done' | number;
  pending: Record<string, string>;
  unknownTypes: string[];
  turn: number;
}

function freshState(): State {
  return {
    metaSeen: false,
    firstChecked: false,
    wrapped: true,
    fork: false,
    model: { model: null, fallback: false },
    previous: null,
    serviceTier: null,
    burst: 'unknown',
    pending: {},
    unknownTypes: [],
    turn: 0,
  };
}

function restore(saved: unknown): State {
  const s = asObj(saved);
  return s ? { ...freshState(), ...(s as unknown as Partial<State>) } : freshState();
}

export function createCodexParser(file: SourceFile, options: ParserOptions): LineParser {
  const state = restore(options.resumeState);

  function turnOf(): number | null {
    return state.turn > 0 ? state.turn : null;
  }

  function remember(callId: string | undefined, tool: string): void {
    if (!callId) return;
    state.pending[callId] = tool;
    const ids = Object.keys(state.pending);
    if (ids.length > MAX_PENDING) delete state.pending[ids[0]!];
  }

  function sessionMeta(payload: Obj, ctx: LineContext, timestamp: string | undefined): EventInput {
    if (state.metaSeen) {
      // A fork copies its parent's records, the parent's session_meta among them.
      return { timestamp, type: 'session_meta', kind: 'system', summary: `session_meta of ${nonEmpty(payload.id) ?? 'another session'} (copied history)`, attrs: { copied: true, copiedSession: nonEmpty(payload.id) ?? null } };
    }
    state.metaSeen = true;
    const id = nonEmpty(payload.id);
    const cwd = nonEmpty(payload.cwd);
    const source = payload.source;
    const spawn = asObj(asObj(asObj(source)?.subagent)?.thread_spawn);
    const forkedFrom = nonEmpty(payload.forked_from_id);
    const spawnedBy = nonEmpty(spawn?.parent_thread_id);
    const parent = forkedFrom ?? spawnedBy ?? null;
    const agentRole = nonEmpty(spawn?.agent_role) ?? nonEmpty(spawn?.agent_nickname);
    state.fork = parent !== null;
    const git = asObj(payload.git);
    const sessionId = file.sessionId!;
    if (id && id.toLowerCase() !== sessionId.toLowerCase()) {
      ctx.defect({ severity: 'warning', kind: 'session_id_mismatch', message: `session_meta names session ${id}, but the file name says ${sessionId}; the file name's id is used` });
    }
    const attrs: Record<string, unknown> = {};
    for (const [k, v] of [
      ['version', nonEmpty(payload.cli_version)],
      ['originator', nonEmpty(payload.originator)],
      ['source', typeof source === 'string' ? source : asObj(source)?.subagent !== undefined ? 'subagent' : undefined],
      ['modelProvider', nonEmpty(payload.model_provider)],
      ['gitBranch', nonEmpty(git?.branch)],
      ['commit', nonEmpty(git?.commit_hash)],
      ['repository', nonEmpty(git?.repository_url)],
      ['sessionStarted', nonEmpty(payload.timestamp)],
    ] as const) {
      if (v !== undefined) attrs[k] = v;
    }
    ctx.facts({
      id: sessionId,
      format: 'codex',
      kind: forkedFrom ? 'fork' : spawnedBy ? 'subagent' : 'root',
      parentId: parent !== null && parent !== sessionId ? parent : null,
      ...(cwd ? { projectPath: cwd, project: projectSlug(cwd) } : {}),
      ...(agentRole ? { agentName: agentRole } : {}),
      attrs,
    });
    const who = [attrs.originator, attrs.version].filter(Boolean).join(' ');
    return {
      timestamp,
      type: 'session_meta',
      kind: 'session_start',
      summary: `Codex${who ? ` (${who})` : ''} session in ${cwd ?? 'an unknown folder'}${parent ? `, ${forkedFrom ? 'forked from' : 'spawned by'} ${parent}` : ''}`,
      attrs: { ...attrs, ...(cwd ? { cwd } : {}), ...(parent ? { parentId: parent } : {}) },
    };
  }

  function turnContext(payload: Obj, timestamp: string | undefined): EventInput {
    const model = modelOf(payload);
    if (model) {
      state.model.model = model;
      state.model.fallback = false;
    }
    const effort = nonEmpty(payload.effort) ?? nonEmpty(asObj(asObj(payload.collaboration_mode)?.settings)?.reasoning_effort);
    const approval = typeof payload.approval_policy === 'string' ? payload.approval_policy : undefined;
    const sandbox = nonEmpty(asObj(payload.sandbox_policy)?.type) ?? nonEmpty(asObj(payload.sandbox_policy)?.mode);
    const attrs: Record<string, unknown> = {};
    if (model) attrs.model = model;
    if (effort) attrs.effort = effort;
    if (approval) attrs.approval = approval;
    if (sandbox) attrs.sandbox = sandbox;
    const cwd = nonEmpty(payload.cwd);
    if (cwd) attrs.cwd = cwd;
    const turnId = nonEmpty(payload.turn_id);
    return {
      timestamp,
      type: 'turn_context',
      kind: 'system',
      turn: turnOf(),
      ...(turnId ? { ids: { request: turnId } } : {}),
      summary: [model ? `model ${model}` : 'turn context', effort && `effort ${effort}`, approval && `approval ${approval}`, sandbox && `sandbox ${sandbox}`].filter(Boolean).join(', '),
      attrs,
    };
  }

  function message(payload: Obj, timestamp: string | undefined, type: string): EventInput {
    const role = asString(payload.role) ?? 'unknown';
    const text = contentText(payload.content);
    const phase = nonEmpty(payload.phase);
    const attrs: Record<string, unknown> = { role };
    if (phase) attrs.phase = phase;
    if (role === 'assistant') {
      return { timestamp, type, kind: 'assistant_message', actor: 'assistant', turn: turnOf(), summary: clip(text), text, attrs };
    }
    if (role === 'user') {
      const opener = CONTEXT_OPENERS.exec(text);
      if (opener) attrs.context = (opener[1] ?? 'agents_md').trim().replace(/ /g, '_');
      if (!state.wrapped && !opener) {
        // A pre-wrapper rollout has no event_msg copy: this is the prompt itself.
        state.turn++;
        return { timestamp, type, kind: 'user_message', actor: 'user', turn: state.turn, summary: clip(text), text, attrs };
      }
      if (!opener) attrs.mirrorOf = 'user_message';
      return { timestamp, type, kind: 'system', actor: 'user', turn: turnOf(), summary: clip(text), attrs };
    }
    // developer / system: instructions the harness sent.
    return { timestamp, type, kind: 'system', actor: role, turn: turnOf(), summary: clip(text), attrs };
  }

  function reasoning(payload: Obj, timestamp: string | undefined, type: string): EventInput {
    const summaryText = Array.isArray(payload.summary) ? payload.summary.map((p) => asString(asObj(p)?.text) ?? '').filter(Boolean).join('\n') : '';
    const contentTextValue = contentText(payload.content);
    const encrypted = asString(payload.encrypted_content);
    const shown = summaryText || contentTextValue;
    return {
      timestamp,
      type,
      kind: 'thinking',
      actor: 'assistant',
      turn: turnOf(),
      summary: shown ? clip(shown) : encrypted ? `encrypted reasoning (${encrypted.length} characters)` : 'reasoning',
      attrs: { encrypted: encrypted !== undefined && encrypted !== null, ...(shown ? {} : { empty: true }) },
    };
  }

  function responseItem(payload: Obj, timestamp: string | undefined): EventInput {
    const ptype = asString(payload.type) ?? 'unknown';
    const type = `response_item:${ptype}`;
    if (ptype === 'message') return message(payload, timestamp, type);
    if (ptype === 'reasoning') return reasoning(payload, timestamp, type);
    if (CALL_TYPES.has(ptype)) {
      const tool = toolNameOf(payload);
      const callId = nonEmpty(payload.call_id) ?? nonEmpty(payload.id);
      remember(callId, tool);
      return { timestamp, type, kind: 'tool_call', actor: 'assistant', turn: turnOf(), toolName: tool, ...(callId ? { ids: { toolCall: callId } } : {}), summary: `${tool} ${callPreview(payload)}`.trim(), attrs: {} };
    }
    if (OUTPUT_TYPES.has(ptype)) {
      const callId = nonEmpty(payload.call_id);
      const tool = (callId && state.pending[callId]) || 'unknown';
      if (callId) delete state.pending[callId];
      const outcome = outcomeOf(payload.output);
      return {
        timestamp,
        type,
        kind: 'tool_result',
        actor: 'tool',
        turn: turnOf(),
        toolName: tool,
        toolStatus: outcome.status,
        ...(callId ? { ids: { toolCall: callId } } : {}),
        summary: `${tool} ${outcome.status === 'error' ? 'failed' : 'ok'}: ${outcome.preview}`,
        attrs: outcome.exitCode !== undefined ? { exitCode: outcome.exitCode } : {},
      };
    }
    if (ptype === 'web_search_call') {
      // A search is its own outcome: no output record follows it.
      const status = asString(payload.status);
      const id = nonEmpty(payload.id);
      return {
        timestamp,
        type,
        kind: 'tool_call',
        actor: 'assistant',
        turn: turnOf(),
        toolName: 'web_search',
        toolStatus: status === undefined || status === 'completed' ? 'ok' : 'error',
        ...(id ? { ids: { toolCall: id } } : {}),
        summary: `web_search ${callPreview(payload)}`.trim(),
        attrs: { selfContained: true, ...(status ? { status } : {}) },
      };
    }
    return { timestamp, type, kind: 'other', turn: turnOf(), summary: ptype, attrs: {} };
  }

  function tokenCount(payload: Obj, ctx: LineContext, timestamp: string | undefined): EventInput {
    const type = 'event_msg:token_count';
    const info = asObj(payload.info);
    for (const which of ['last_token_usage', 'total_token_usage']) {
      const usage = asObj(info?.[which]);
      const bad = usage ? badCountFields(usage) : [];
      if (bad.length > 0) ctx.defect({ severity: 'warning', kind: 'malformed_usage', message: `token_count ${which} has ${bad.join(', ')} that are not token counts; read as 0` });
    }
    const { call, total, repeat } = callOf(info, state.previous);
    state.previous = total;
    if (!call) {
      return { timestamp, type, kind: 'system', turn: turnOf(), summary: info ? (repeat ? 'token count repeated (no new call)' : 'token count with no tokens') : 'token count without usage (rate limits only)', attrs: { counted: false } };
    }
    if (state.fork && state.burst !== 'done') {
      const ms = timestamp ? Date.parse(timestamp) : NaN;
      if (state.burst === 'unknown') state.burst = rewrittenBurstStart(file.path) ?? 'done';
      if (typeof state.burst === 'number' && Number.isFinite(ms) && ms - state.burst >= 0 && ms - state.burst <= BURST_PAUSE_MS) {
        state.burst = ms;
        return { timestamp, type, kind: 'system', turn: turnOf(), summary: 'token count copied from the parent session (replayed history; not counted)', attrs: { counted: false, replayed: true } };
      }
      state.burst = 'done';
    }
    const named = modelOf(payload) ?? modelOf(info);
    const resolved = resolveModel(named, state.model, timestamp);
    const usage = eventUsage(call, `L${ctx.lineNumber}`, resolved.model);
    const attrs: Record<string, unknown> = { counted: true, reasoning: call.reasoning, totalTokens: call.total };
    if (resolved.fallback) attrs.modelFallback = true;
    if (resolved.logged) attrs.loggedModel = resolved.logged;
    if (state.serviceTier) attrs.serviceTier = state.serviceTier;
    return {
      timestamp,
      type,
      kind: 'llm_call',
      actor: 'assistant',
      turn: turnOf(),
      usage,
      summary: `${resolved.model}: in ${usage.input} + cached ${usage.cacheRead}, out ${usage.output} (reasoning ${call.reasoning})`,
      attrs,
    };
  }

  function eventMsg(payload: Obj, ctx: LineContext, timestamp: string | undefined): EventInput {
    const ptype = asString(payload.type) ?? 'unknown';
    const type = `event_msg:${ptype}`;
    switch (ptype) {
      case 'token_count':
        return tokenCount(payload, ctx, timestamp);
      case 'user_message': {
        state.turn++;
        const text = clip(asString(payload.message) ?? '', 16 * 1024);
        const images = (Array.isArray(payload.images) ? payload.images.length : 0) + (Array.isArray(payload.local_images) ? payload.local_images.length : 0);
        return { timestamp, type, kind: 'user_message', actor: 'user', turn: state.turn, summary: clip(text), text, attrs: images > 0 ? { images } : {} };
      }
      case 'task_started':
      case 'turn_started': {
        const turnId = nonEmpty(payload.turn_id);
        return { timestamp, type, kind: 'system', turn: turnOf(), ...(turnId ? { ids: { request: turnId } } : {}), summary: 'turn started', attrs: {} };
      }
      case 'task_complete':
      case 'turn_complete': {
        const turnId = nonEmpty(payload.turn_id);
        const last = asString(payload.last_agent_message);
        return { timestamp, type, kind: 'system', turn: turnOf(), ...(turnId ? { ids: { request: turnId } } : {}), summary: last ? `turn complete: ${clip(last, 200)}` : 'turn complete', attrs: { turnEnd: 'complete' } };
      }
      case 'turn_aborted': {
        const reason = nonEmpty(payload.reason) ?? 'unknown';
        return { timestamp, type, kind: 'warning', turn: turnOf(), summary: `turn aborted (${reason})`, attrs: { turnEnd: 'aborted', reason } };
      }
      case 'error':
        return { timestamp, type, kind: 'error', turn: turnOf(), summary: `error: ${clip(asString(payload.message) ?? 'unknown error', 600)}`, attrs: {} };
      case 'stream_error':
        return { timestamp, type, kind: 'warning', turn: turnOf(), summary: `stream error: ${clip(asString(payload.message) ?? '', 600)}`, attrs: {} };
      case 'thread_settings_applied': {
        const tier = nonEmpty(asObj(payload.thread_settings)?.service_tier);
        if (tier) state.serviceTier = tier;
        return { timestamp, type, kind: 'system', turn: turnOf(), summary: tier ? `service tier ${tier}` : 'thread settings applied', attrs: tier ? { serviceTier: tier } : {} };
      }
      default: {
        const mirrorOf = EVENT_MIRRORS[ptype];
        const text = asString(payload.message) ?? asString(payload.text) ?? asString(payload.query) ?? asString(payload.stdout) ?? '';
        const attrs: Record<string, unknown> = mirrorOf ? { mirrorOf } : {};
        const callId = nonEmpty(payload.call_id);
        if (typeof payload.exit_code === 'number') attrs.exitCode = payload.exit_code;
        if (typeof payload.success === 'boolean') attrs.success = payload.success;
        return { timestamp, type, kind: 'system', turn: turnOf(), ...(callId ? { ids: { toolCall: callId } } : {}), summary: text ? `${ptype}: ${clip(text, 300)}` : ptype, attrs };
      }
    }
  }

  function unknownRecord(recordType: string, ctx: LineContext, timestamp: string | undefined): EventInput {
    if (!state.unknownTypes.includes(recordType) && state.unknownTypes.length < 50) {
      state.unknownTypes.push(recordType);
      ctx.defect({ severity: 'info', kind: 'unknown_record_type', message: `record type "${recordType}" is not one this importer knows; kept as an 'other' event (first of its kind in this file)` });
    }
    return { timestamp, type: recordType, kind: 'other', turn: turnOf(), summary: recordType, attrs: {} };
  }

  /** A pre-wrapper rollout line: the meta object, a response item, or a `record_type: state` line. */
  function legacy(obj: Obj, ctx: LineContext): EventInput | null {
    const timestamp = asString(obj.timestamp);
    if (!state.metaSeen && typeof obj.id === 'string' && obj.type === undefined && obj.record_type === undefined) {
      state.wrapped = false;
      return sessionMeta(obj, ctx, timestamp);
    }
    if (obj.record_type !== undefined) {
      state.wrapped = false;
      return { timestamp, type: `record_type:${String(obj.record_type)}`, kind: 'system', turn: turnOf(), summary: `${String(obj.record_type)} record`, attrs: {} };
    }
    if (typeof obj.type === 'string' && LEGACY_ITEM_TYPES.has(obj.type) && obj.payload === undefined) {
      if (!state.metaSeen) state.wrapped = false;
      return responseItem(obj, timestamp);
    }
    return null;
  }

  return {
    line(obj, ctx) {
      const recordType = obj.type;
      const timestamp = asString(obj.timestamp);
      if (!state.firstChecked) {
        state.firstChecked = true;
        if (recordType !== 'session_meta' && !(typeof obj.id === 'string' && recordType === undefined)) {
          ctx.defect({ severity: 'warning', kind: 'missing_session_meta', message: `the rollout does not open with session_meta (first record: ${typeof recordType === 'string' ? recordType : 'untyped'}); its head may be missing` });
        }
      }
      const old = legacy(obj, ctx);
      if (old) {
        ctx.emit(old);
        return;
      }
      if (typeof recordType !== 'string') {
        ctx.defect({ severity: 'error', kind: 'not_a_rollout_record', message: 'JSON object without a string "type": not a Codex rollout record; kept as evidence only' });
        return;
      }
      if (!KNOWN_RECORDS.has(recordType)) {
        ctx.emit(unknownRecord(recordType, ctx, timestamp));
        return;
      }
      const payload = asObj(obj.payload);
      if (!payload) {
        ctx.defect({ severity: 'error', kind: 'malformed_record', message: `${recordType} record without a payload object; kept as evidence only` });
        return;
      }
      switch (recordType) {
        case 'session_meta':
          ctx.emit(sessionMeta(payload, ctx, timestamp));
          return;
        case 'turn_context':
          ctx.emit(turnContext(payload, timestamp));
          return;
        case 'response_item':
          ctx.emit(responseItem(payload, timestamp));
          return;
        case 'event_msg':
          ctx.emit(eventMsg(payload, ctx, timestamp));
          return;
        case 'compacted': {
          const summaryText = asString(payload.message) ?? '';
          ctx.emit({ timestamp, type: 'compacted', kind: 'compaction', turn: turnOf(), summary: summaryText ? `context compacted: ${clip(summaryText, 300)}` : 'context compacted', attrs: {} });
          return;
        }
      }
    },
    hugeLine(head, ctx) {
      // Only tool outputs and pasted content grow this large; keep where and what it was.
      const timestamp = /"timestamp"\s*:\s*"([^"]{1,64})"/.exec(head)?.[1];
      const recordType = /^\s*\{[^{]*?"type"\s*:\s*"([a-z_]{1,40})"/.exec(head)?.[1] ?? 'unknown';
      const itemType = /"payload"\s*:\s*\{\s*"type"\s*:\s*"([a-z_]{1,40})"/.exec(head)?.[1];
      const type = itemType ? `${recordType}:${itemType}` : recordType;
      const callId = /"call_id"\s*:\s*"([^"]{1,200})"/.exec(head)?.[1];
      if (itemType && OUTPUT_TYPES.has(itemType) && callId) {
        // A huge tool output still answers its call (else the call would look unanswered).
        const tool = state.pending[callId] ?? 'unknown';
        delete state.pending[callId];
        ctx.emit({ timestamp, type, kind: 'tool_result', actor: 'tool', turn: turnOf(), toolName: tool, toolStatus: 'ok', ids: { toolCall: callId }, summary: `${tool} output of ${ctx.byteLength} bytes (only its head was read)`, attrs: { huge: true, bytes: ctx.byteLength } });
        return;
      }
      ctx.emit({ timestamp, type, kind: 'other', turn: turnOf(), summary: `${type} (${ctx.byteLength} bytes; only its head was read)`, attrs: { huge: true, bytes: ctx.byteLength } });
    },
    snapshot() {
      return JSON.parse(JSON.stringify(state)) as unknown;
    },
  };
}
