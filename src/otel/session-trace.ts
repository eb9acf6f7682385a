// A session as one OpenTelemetry trace, after the fact, in the GenAI conventions' shape
// (docs/otel.md): the top-level session is the root `invoke_agent` span; each LLM call, counted
// once exactly as usage_report counts it (core/llm-calls.ts), is a `chat {model}` span; each tool
// call is an `execute_tool {name}` span; sub-agents and forks are nested `invoke_agent` spans, under
// the tool call that launched them when the log links the two. Times come from the evidence.

import type { LlmCall, StoredEvent } from '../core/events.js';
import { llmCalls } from '../core/llm-calls.js';
import { toTimeKey } from '../core/time.js';
import { ownEvents, toolCalls } from '../analysis/session-events.js';
import { profileOf } from '../formats/registry.js';
import type { FormatProfile, ProfileSession } from '../formats/profile.js';
import type { SessionRow, Store } from '../store/store.js';
import { SpanIds, traceIdOf } from './ids.js';
import { providerOfModel } from './provider-of-model.js';
import { GEN_AI, GENERAL, HINDSIGHT, OPERATION } from './semconv.js';
import { sessionContent, type SessionContent } from './trace-content.js';
import type { SpanValue, TraceSpan } from './trace-span.js';

export interface TraceOptions {
  /** Sub-agents and forks as nested invoke_agent spans (default true). */
  includeSubagents?: boolean;
  /** Prompts, replies and tool arguments on the spans (default false). */
  includeContent?: boolean;
  /** Redact secrets in the content (default true). */
  redact?: boolean;
}

interface Context {
  store: Store;
  traceId: string;
  ids: SpanIds;
  spans: TraceSpan[];
  children: Map<string, SessionRow[]>;
  service: string;
  options: Required<TraceOptions>;
}

const later = (a: string | null, b: string | null) => (a === null ? b : b === null || a >= b ? a : b);
const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null || a <= b ? a : b);

const agentNameOf = (profile: FormatProfile) => profile.agentIdentity.agentName ?? profile.label;

/** The provider of a call: the format's one provider, else the model's family, else the model's own prefix. */
function providerOf(profile: FormatProfile, model: string | null): string {
  return profile.agentIdentity.providerName ?? providerOfModel(model) ?? (model?.includes('/') ? model.slice(0, model.indexOf('/')).toLowerCase() : 'unknown');
}

const profileSession = (s: SessionRow): ProfileSession => ({ id: s.id, parentId: s.parentId, kind: s.kind, startedAt: s.startedAt, attrs: s.attrs });

/** The last string a call's records say under one of these attrs (Claude Code writes stop_reason on its last split line). */
function lastAttr(records: readonly StoredEvent[], names: readonly string[]): string | null {
  let found: string | null = null;
  for (const r of records) for (const n of names) if (typeof r.attrs[n] === 'string' && r.attrs[n] !== '') found = r.attrs[n] as string;
  return found;
}

function chatAttributes(s: SessionRow, profile: FormatProfile, call: LlmCall, records: readonly StoredEvent[], chosen: StoredEvent): Record<string, SpanValue> {
  const a: Record<string, SpanValue> = {
    [GEN_AI.operationName]: OPERATION.chat,
    [GEN_AI.providerName]: providerOf(profile, call.model),
    [GEN_AI.conversationId]: s.id,
    // The conventions' meaning: input counts every prompt token, cached ones included; output every
    // generated token, reasoning included (Hindsight keeps the kinds apart: docs/otel.md).
    [GEN_AI.inputTokens]: call.input + call.cacheRead + call.cacheWrite,
    [GEN_AI.outputTokens]: call.output + (call.reasoning ?? 0),
    [GEN_AI.cacheReadInputTokens]: call.cacheRead,
    [GEN_AI.cacheCreationInputTokens]: call.cacheWrite,
    [HINDSIGHT.evidenceFile]: chosen.file,
    [HINDSIGHT.evidenceLine]: chosen.lineNumber,
  };
  if (call.reasoning) a[GEN_AI.reasoningOutputTokens] = call.reasoning;
  if (call.model) {
    a[GEN_AI.requestModel] = call.model;
    a[GEN_AI.responseModel] = call.model;
  }
  const responseId = records.map((r) => r.ids.message).find((m) => m !== undefined);
  if (responseId) a[GEN_AI.responseId] = responseId;
  const finish = lastAttr(records, ['stopReason', 'finishReason', 'finish_reason']);
  if (finish) a[GEN_AI.finishReasons] = [finish];
  return a;
}

/** Which sub-agent each tool call launched, as the log links them (an event's agentId or agent id). */
function agentOfCalls(events: readonly StoredEvent[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const e of events) {
    const agent = typeof e.attrs.agentId === 'string' ? e.attrs.agentId : e.ids.agent;
    if (e.ids.toolCall !== undefined && agent !== undefined && !map.has(e.ids.toolCall)) map.set(e.ids.toolCall, agent);
  }
  return map;
}

/** Spans of one session (and, below it, its sub-agents'); returns the session's time span. */
async function sessionSpans(cx: Context, s: SessionRow, parentSpanId: string | null): Promise<{ start: string | null; end: string | null }> {
  const profile = await profileOf(s.format);
  const events = await ownEvents(cx.store, s.id);
  const content: SessionContent | null = cx.options.includeContent ? await sessionContent(cx.store, profile, events, cx.options.redact) : null;
  const agentSpanId = cx.ids.of(s.id, 'agent', s.id);
  const agentName = s.parentId !== null && s.agentName ? s.agentName : agentNameOf(profile);
  const calls = llmCalls(events);
  const agentSpan: TraceSpan = {
    traceId: cx.traceId,
    spanId: agentSpanId,
    parentSpanId,
    name: `${OPERATION.invokeAgent} ${agentName}`,
    kind: 'internal',
    start: null,
    end: null,
    attributes: {
      [GEN_AI.operationName]: OPERATION.invokeAgent,
      [GEN_AI.providerName]: providerOf(profile, calls[0]?.model ?? s.models[0] ?? null),
      [GEN_AI.agentName]: agentName,
      [GEN_AI.agentId]: s.id,
      [GEN_AI.conversationId]: s.id,
      [HINDSIGHT.format]: s.format,
      [HINDSIGHT.kind]: s.kind,
      [HINDSIGHT.status]: s.status,
      ...(parentSpanId === null ? { [GENERAL.sessionId]: s.id } : {}),
      ...(s.project !== null ? { [HINDSIGHT.project]: s.project } : {}),
      ...(s.projectPath !== null ? { [HINDSIGHT.projectPath]: s.projectPath } : {}),
    },
    error: s.status === 'errored' ? { type: 'session_errored', message: null } : null,
    service: cx.service,
  };
  cx.spans.push(agentSpan);
  let start: string | null = null;
  let end: string | null = null;
  for (const e of events) {
    start = earlier(start, e.tsKey);
    end = later(end, e.tsKey);
  }

  // Chat spans: from the event before the call's first record (what it answered) to its last record.
  const position = new Map(events.map((e, i) => [e, i] as const));
  const recordsOf = new Map<string, StoredEvent[]>();
  for (const e of events) if (e.usage) (recordsOf.get(e.usage.key) ?? recordsOf.set(e.usage.key, []).get(e.usage.key)!).push(e);
  const chatSpans: { span: TraceSpan; first: number; key: string }[] = [];
  for (const call of calls) {
    const records = recordsOf.get(call.key) ?? [];
    const chosen = records.find((r) => r.seq === call.seq) ?? records[0]!;
    const first = position.get(records[0]!)!;
    let callEnd: string | null = null;
    for (const r of records) callEnd = later(callEnd, r.tsKey);
    const asked = first > 0 ? events[first - 1]!.tsKey : records[0]!.tsKey;
    const span: TraceSpan = {
      traceId: cx.traceId,
      spanId: cx.ids.of(s.id, 'chat', call.key),
      parentSpanId: agentSpanId,
      name: call.model ? `${OPERATION.chat} ${call.model}` : OPERATION.chat,
      kind: 'client',
      start: asked !== null && callEnd !== null && asked > callEnd ? callEnd : asked ?? callEnd,
      end: callEnd,
      attributes: chatAttributes(s, profile, call, records, chosen),
      error: null,
      service: cx.service,
    };
    chatSpans.push({ span, first, key: call.key });
    cx.spans.push(span);
  }
  if (content) attachMessages(profile, events, position, chatSpans, content);

  // Tool spans: from the call to its result (a call without a result is a point in time).
  const results = new Map<string, StoredEvent>();
  for (const e of events) if (e.kind === 'tool_result' && e.ids.toolCall !== undefined) results.set(e.ids.toolCall, e);
  const toolSpanOfCall = new Map<string, string>();
  for (const t of toolCalls(events, profile.toolLedger(profileSession(s), events))) {
    const e = t.event;
    const result = e.ids.toolCall !== undefined ? results.get(e.ids.toolCall) : undefined;
    const failed = e.toolStatus === 'error' || result?.toolStatus === 'error';
    const attributes: Record<string, SpanValue> = {
      [GEN_AI.operationName]: OPERATION.executeTool,
      [GEN_AI.toolName]: t.name,
      [HINDSIGHT.evidenceFile]: e.file,
      [HINDSIGHT.evidenceLine]: e.lineNumber,
    };
    if (e.ids.toolCall !== undefined) attributes[GEN_AI.toolCallId] = e.ids.toolCall;
    if (failed) attributes[GENERAL.errorType] = 'tool_error';
    const args = content?.toolArguments(e);
    if (args) attributes[GEN_AI.toolCallArguments] = args;
    const spanId = cx.ids.of(s.id, 'tool', e.ids.toolCall ?? `${e.ledger}:${e.lineNumber}:${e.part}`);
    if (e.ids.toolCall !== undefined) toolSpanOfCall.set(e.ids.toolCall, spanId);
    const resultAt = result?.tsKey ?? null;
    cx.spans.push({
      traceId: cx.traceId,
      spanId,
      parentSpanId: agentSpanId,
      name: `${OPERATION.executeTool} ${t.name}`,
      kind: 'internal',
      start: e.tsKey,
      end: resultAt !== null && e.tsKey !== null && resultAt >= e.tsKey ? resultAt : e.tsKey,
      attributes,
      error: failed ? { type: 'tool_error', message: content && result ? content.failure(result) : null } : null,
      service: cx.service,
    });
  }

  // Sub-agents: under the tool call that launched them, else under this agent.
  if (cx.options.includeSubagents) {
    const launched = agentOfCalls(events);
    const spanOfAgent = new Map<string, string>();
    for (const [callId, agent] of launched) {
      const spanId = toolSpanOfCall.get(callId);
      if (spanId !== undefined) spanOfAgent.set(agent, spanId);
    }
    for (const child of cx.children.get(s.id) ?? []) {
      const tail = child.id.slice(child.id.lastIndexOf(':') + 1);
      const parent = spanOfAgent.get(child.id) ?? spanOfAgent.get(tail) ?? agentSpanId;
      const t = await sessionSpans(cx, child, parent);
      start = earlier(start, t.start);
      end = later(end, t.end);
    }
  }
  agentSpan.start = start ?? toTimeKey(s.startedAt);
  agentSpan.end = end ?? toTimeKey(s.endedAt) ?? agentSpan.start;
  return { start: agentSpan.start, end: agentSpan.end };
}

/**
 * Prompts and replies onto chat spans: a reply with a usage key belongs to that call; one without
 * to the first call at or after it (else the last); a prompt to the first call after it.
 */
function attachMessages(
  profile: FormatProfile,
  events: readonly StoredEvent[],
  position: Map<StoredEvent, number>,
  chats: readonly { span: TraceSpan; first: number; key: string }[],
  content: SessionContent,
): void {
  if (chats.length === 0) return;
  const byKey = new Map(chats.map((c) => [c.key, c]));
  const inputs = new Map<TraceSpan, { role: string; parts: { type: string; content: string }[] }[]>();
  const outputs = new Map<TraceSpan, { role: string; parts: { type: string; content: string }[]; finish_reason: string }[]>();
  for (const ref of profile.transcriptMessages(events)) {
    const at = position.get(ref.event) ?? 0;
    const after = chats.find((c) => c.first >= at);
    const part = { type: 'text', content: content.text(ref) };
    if (ref.role === 'user') {
      if (!after) continue;
      (inputs.get(after.span) ?? inputs.set(after.span, []).get(after.span)!).push({ role: 'user', parts: [part] });
    } else {
      const chat = (ref.event.usage && byKey.get(ref.event.usage.key)) || after || chats[chats.length - 1]!;
      const finish = chat.span.attributes[GEN_AI.finishReasons];
      const list = outputs.get(chat.span) ?? outputs.set(chat.span, []).get(chat.span)!;
      list.push({ role: 'assistant', parts: [part], finish_reason: Array.isArray(finish) ? finish[0]! : 'unknown' });
    }
  }
  for (const [span, messages] of inputs) span.attributes[GEN_AI.inputMessages] = JSON.stringify(messages);
  for (const [span, messages] of outputs) span.attributes[GEN_AI.outputMessages] = JSON.stringify(messages);
}

/**
 * The trace of a top-level session, its spans root first (then each session's chat and tool spans,
 * then its sub-agents'). `descendants` are the rows below it (any order); pass them when listed
 * already, else they are read from the store.
 *
 * @example const spans = await sessionTrace(store, row, await descendantRows(store, row.id));
 */
export async function sessionTrace(store: Store, root: SessionRow, descendants: readonly SessionRow[], options: TraceOptions = {}): Promise<TraceSpan[]> {
  const children = new Map<string, SessionRow[]>();
  for (const d of [...descendants].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    if (d.parentId === null) continue;
    (children.get(d.parentId) ?? children.set(d.parentId, []).get(d.parentId)!).push(d);
  }
  const profile = await profileOf(root.format);
  const cx: Context = {
    store,
    traceId: traceIdOf(root.id),
    ids: new SpanIds(traceIdOf(root.id)),
    spans: [],
    children,
    service: agentNameOf(profile),
    options: { includeSubagents: options.includeSubagents ?? true, includeContent: options.includeContent ?? false, redact: options.redact ?? true },
  };
  await sessionSpans(cx, root, null);
  return cx.spans;
}

/** The rows of every session below `id`. */
export async function descendantRows(store: Store, id: string): Promise<SessionRow[]> {
  const rows: SessionRow[] = [];
  for (const d of await store.sessionDescendants(id)) {
    const row = await store.getSession(d);
    if (row) rows.push(row);
  }
  return rows;
}
