// The compact replay format (seeds/session-replay-format.md): a header line, then one short
// entry per thing that happened, sub-agents merged in time order, tool payloads summarised.
// Streams the timeline a page at a time, so memory does not grow with the session.
//
// Header: {"v":1,"session","format","cwd","branch","started","version","title"}; the seed's
// fields are always there, null when the source does not say (branch: Claude Code's gitBranch).
// Entry fields: t (time, ISO UTC ms), r (role: user | assistant | system | agent | agent_result),
// m (message text), cut (bytes of m left out past the limit), kind (why a user text is not a
// human prompt: command, system-reminder, …), thinking, tool, args, tool_result, status
// (success | error for tools; the agent's own status for agent_result), msg (a note or short
// result text), agent, task, type (sub-agent type), size (bytes), count, exit, code, turn, wo.
// Context lines: {"ctx":"agent"|"model"|"cwd"|"branch","v":…,"t":…}; ctx agent names the
// session the following entries come from ("main" for the exported session), ctx model the
// model that session's next responses use.
//
// Mapping per format (each in its folder's replay.ts: src/formats/<id>/replay.ts):
// - Claude Code: user text blocks → user m (Claude Code's own wrapper text keeps `kind`); assistant
//   text → assistant m (API errors add status error); thinking → thinking: true; tool_use →
//   tool + args; tool_result → tool_result + status + per-tool facts; Task / Agent calls → r agent
//   (agent id from the result or progress lines, task = prompt) and r agent_result (status, size,
//   msg = first 300 characters of the report); compaction, warnings, errors and system lines →
//   system msg; cwd / gitBranch changes on message lines → ctx; the model of each response → ctx
//   model. Progress mirrors, file-history snapshots, queue operations, turn timings and stop-hook
//   notes are left out.
// - Control Plane: TURN_RECORDED → user m (user_message, with turn) + assistant m (response);
//   TOOL_CALL → tool + args (from metadata.arguments, else args_summary) + tool_result (status,
//   size = result_bytes, msg = tool_error or result_summary); WO_DISPATCHED → r agent (agent = the
//   work order, task = "wo_type → tier"); WO_COMPLETED / WO_FAILED → r agent_result; EXCHANGE →
//   ctx model when the model changes (a failed exchange also a system msg); WO_PLANNED,
//   WO_CHAIN_COMPLETE, WO_QUALITY_GATE, DEGRADATION, ESCALATION, BUDGET_WARNING, SESSION_START /
//   END, INTENT_* and unknown types → system msg (its summary, with wo); DISPATCH, BUDGET_ALLOCATE,
//   BUDGET_DEBIT, PROJECTION_SHADOW_COMPARE and LLM_CALL (EXCHANGE says the same) are left out.
// - Amplifier: transcript user → user m (a persisted system reminder keeps kind system-reminder);
//   assistant text → m; thinking → flag; tool_call → tool + args (task / delegate → r agent);
//   tool message → tool_result (ToolResult decoded: returncode → exit, lists → count); from the
//   events ledger only errors, warnings and compactions (system msg) and the model of each
//   llm:response (ctx model); metadata.json gives the header's cwd only.

import { keyToIso } from '../../core/time.js';
import type { StoredEvent } from '../../core/events.js';
import type { SessionRow, Store } from '../../store/store.js';
import { lineKey, loadLines } from '../../analysis/evidence-lines.js';
import type { Obj } from '../../formats/shared/tool-summary.js';
import type { ReplayContext } from '../../formats/profile.js';
import { profileOf } from '../../formats/registry.js';

export interface ReplayOptions {
  includeSubagents: boolean;
  /** Bytes of user text kept per message (the seed's 1 KB; markdown passes no limit). */
  userTextLimit: number;
  /**
   * Add what the markdown transcript needs beyond the seed's entries: `call_id` on tool calls,
   * tool results and sub-agent launches and results (to put each result under its own call), and
   * `text` on thinking entries (folded in the transcript). Off for the replay format.
   */
  detail?: boolean;
}

export const USER_TEXT_LIMIT = 1024;
/** Events per timeline page: enough to amortise the store calls, small enough to stay flat. */
const PAGE = 500;
/** An entry that stands for a tool call or its result (detail mode tags it with the call id). */
const isCallEntry = (entry: Obj): boolean =>
  entry.tool !== undefined || entry.tool_result !== undefined || entry.r === 'agent' || entry.r === 'agent_result';

/** Every event of the (merged) timeline, a page at a time. */
export async function* timelineEvents(store: Store, id: string, descendants: boolean): AsyncGenerator<StoredEvent[]> {
  for (let offset = 0; ; offset += PAGE) {
    const { events } = await store.sessionTimeline(id, { offset, limit: PAGE, descendants });
    if (events.length > 0) yield events;
    if (events.length < PAGE) return;
  }
}

/** Tool call id → sub-agent id, from the events that name both (Claude Code results and progress lines; no payloads). */
async function agentsOfCalls(store: Store, session: SessionRow): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  for await (const events of timelineEvents(store, session.id, false)) {
    for (const e of events) {
      const agent = typeof e.attrs.agentId === 'string' ? e.attrs.agentId : e.ids.agent;
      if (e.ids.toolCall !== undefined && agent !== undefined && !map.has(e.ids.toolCall)) map.set(e.ids.toolCall, agent);
    }
  }
  return map;
}

/** A session fact the importer recorded from its lines (Claude Code: gitBranch, version of the first line with a cwd). */
function factText(session: SessionRow, key: string): string | null {
  const v = session.facts.attrs?.[key];
  return typeof v === 'string' && v !== '' ? v : null;
}

/**
 * The header line: who, where, when. The seed's fields (v, session, cwd, branch, started) are
 * always present, null when the source does not say; format, version and title are Hindsight's.
 */
export function replayHeader(session: SessionRow): Obj {
  return {
    v: 1,
    session: session.id,
    format: session.format,
    cwd: session.projectPath ?? null,
    branch: factText(session, 'gitBranch'),
    started: session.startedAt ?? null,
    version: factText(session, 'version'),
    title: session.title ?? null,
  };
}

/** How a sub-agent is named in ctx lines: its agent id under the exported session, else its session id. */
function agentLabel(rootId: string, sessionId: string): string {
  if (sessionId === rootId) return 'main';
  return sessionId.startsWith(`${rootId}:`) ? sessionId.slice(rootId.length + 1) : sessionId;
}

/**
 * The replay of a session as entries (header first), in timeline order.
 *
 * @example for await (const entry of replayEntries(store, session, { includeSubagents: true, userTextLimit: 1024 })) …
 */
export async function* replayEntries(store: Store, session: SessionRow, opts: ReplayOptions): AsyncGenerator<Obj> {
  yield replayHeader(session);
  const profile = await profileOf(session.format);
  const mapper = profile.replay;
  const cx: ReplayContext = {
    userTextLimit: opts.userTextLimit,
    agentOfCall: mapper.linksAgentCalls ? await agentsOfCalls(store, session) : new Map(),
    sessionId: session.id,
    places: new Map(),
    detail: opts.detail ?? false,
    start: {
      cwd: session.projectPath ?? undefined,
      branch: factText(session, 'gitBranch') ?? undefined,
    },
  };
  const models = new Map<string, string>();
  let current = session.id;
  for await (const events of timelineEvents(store, session.id, opts.includeSubagents)) {
    const lines = await loadLines(store, events.filter((e) => mapper.needsLine(e)));
    for (const e of events) {
      const t = keyToIso(e.tsKey);
      const stamp = t === null ? {} : { t };
      const model = e.usage?.model;
      const pending: Obj[] = [];
      if (model && !profile.placeholderModels.includes(model) && models.get(e.sessionId) !== model) {
        models.set(e.sessionId, model);
        pending.push({ ctx: 'model', v: model });
      }
      const line = lines.get(lineKey(e));
      cx.sessionId = e.sessionId;
      const mapped = mapper.map(e, line && 'obj' in line ? line.obj : undefined, cx);
      if (mapped.length > 0 || pending.length > 0) {
        if (e.sessionId !== current) {
          current = e.sessionId;
          pending.unshift({ ctx: 'agent', v: agentLabel(session.id, e.sessionId) });
        }
      }
      if (cx.detail && e.ids.toolCall !== undefined) for (const entry of mapped) if (isCallEntry(entry)) entry.call_id = e.ids.toolCall;
      for (const entry of [...pending, ...mapped]) yield 'ctx' in entry ? { ...entry, ...stamp } : { ...stamp, ...entry };
    }
  }
}
