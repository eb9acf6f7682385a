// A Claude Code session's summary from its own events (children are summed by the store), and the
// findings that need the whole session (orphan tool calls).

import type { StoredEvent } from '../../core/events.js';
import { llmCalls } from '../../core/llm-calls.js';
import type { Defect, SessionSummary, TokenCounts } from '../../core/model.js';
import { keyToIso } from '../../core/time.js';
import type { SummaryInput, SummaryOutput } from '../importer.js';
import { sessionStatus } from './status.js';
import { SYNTHETIC_MODEL, totalOf } from './usage.js';

const MAX_SUBAGENTS = 100;

interface Chosen {
  event: StoredEvent;
  total: number;
}

/** Per usage key, the line with the largest totals (ccusage's rule; the first wins a tie). */
function chooseUsage(events: StoredEvent[]): Map<string, Chosen> {
  const chosen = new Map<string, Chosen>();
  for (const e of events) {
    if (!e.usage) continue;
    const total = totalOf(e.usage);
    const prev = chosen.get(e.usage.key);
    if (!prev || total > prev.total) chosen.set(e.usage.key, { event: e, total });
  }
  return chosen;
}

function subagentLinks(events: StoredEvent[]): Record<string, unknown>[] {
  const links: Record<string, unknown>[] = [];
  for (const e of events) {
    if (e.kind !== 'tool_result' || typeof e.attrs.childSessionId !== 'string') continue;
    const link: Record<string, unknown> = { childSessionId: e.attrs.childSessionId, toolUseId: e.ids.toolCall ?? null };
    for (const key of ['agentId', 'totalTokens', 'totalDurationMs', 'totalToolUseCount', 'agentStatus']) {
      if (e.attrs[key] !== undefined) link[key] = e.attrs[key];
    }
    links.push(link);
    if (links.length >= MAX_SUBAGENTS) break;
  }
  return links;
}

/** A progress line mirroring a sub-agent's call (usage.ts, readMirrorUsage). */
const isMirror = (e: StoredEvent): boolean => e.type === 'progress' && e.usage !== null;

/**
 * Mirrors whose call a child session records first-hand: they stop counting here, so each API
 * response counts once in the session tree (formats.md, "Token usage traps"). Dropping is one-way:
 * the store clears their usage, and a call a child recorded once stays the child's.
 */
function coveredMirrors(events: readonly StoredEvent[], childCalls: ReadonlySet<string> | undefined): Set<number> {
  const covered = new Set<number>();
  if (!childCalls || childCalls.size === 0) return covered;
  for (const e of events) if (isMirror(e) && childCalls.has(e.usage!.key)) covered.add(e.seq);
  return covered;
}

/** The session's events as they count: covered mirrors without their usage. */
function countedEvents(input: SummaryInput): { events: StoredEvent[]; dropped: Set<number> } {
  const dropped = coveredMirrors(input.events, input.childCalls);
  const events = dropped.size === 0 ? input.events : input.events.map((e) => (dropped.has(e.seq) ? { ...e, usage: null } : e));
  return { events, dropped };
}

/** The session's calls and the mirrors it drops, as summarizeClaudeCode gives them (Importer.usageCalls). */
export function claudeCodeUsageCalls(input: SummaryInput): Pick<SummaryOutput, 'calls' | 'dropUsage'> {
  const { events, dropped } = countedEvents(input);
  return { calls: llmCalls(events, isMirror), dropUsage: [...dropped] };
}

export function summarizeClaudeCode(input: SummaryInput): SummaryOutput {
  const { facts } = input;
  const { events, dropped } = countedEvents(input);
  const tokens: TokenCounts = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
  let cacheWrite5m = 0;
  let cacheWrite1h = 0;
  const models: string[] = [];
  const chosen = chooseUsage(events);
  for (const { event } of chosen.values()) {
    const u = event.usage!;
    tokens.input += u.input;
    tokens.output += u.output;
    tokens.cacheWrite += u.cacheWrite;
    tokens.cacheRead += u.cacheRead;
    if (typeof event.attrs.cacheWrite5m === 'number') cacheWrite5m += event.attrs.cacheWrite5m;
    if (typeof event.attrs.cacheWrite1h === 'number') cacheWrite1h += event.attrs.cacheWrite1h;
  }
  for (const e of events) {
    const model = e.usage?.model;
    if (model && model !== SYNTHETIC_MODEL && !models.includes(model)) models.push(model);
  }

  const answered = new Set<string>();
  for (const e of events) if (e.kind === 'tool_result' && e.ids.toolCall !== undefined) answered.add(e.ids.toolCall);

  const defects: Defect[] = [];
  let turnCount = 0;
  let firstUserMessage: string | null = null;
  let lastResponsePreview: string | null = null;
  let toolCalls = 0;
  let toolErrors = 0;
  let errors = 0;
  let warnings = 0;
  let compactions = 0;
  let interruptions = 0;
  let startedAt: string | null = null;
  let endedAt: string | null = null;

  for (const e of events) {
    if (e.tsKey !== null) {
      if (startedAt === null || e.tsKey < startedAt) startedAt = e.tsKey;
      if (endedAt === null || e.tsKey > endedAt) endedAt = e.tsKey;
    }
    if (e.attrs.turnStart === true) {
      turnCount++;
      if (firstUserMessage === null && e.summary !== '') firstUserMessage = e.summary;
    }
    if (e.attrs.wrapper === 'interrupt') interruptions++;
    if (e.kind === 'assistant_message' && e.attrs.synthetic !== true && e.summary !== '') lastResponsePreview = e.summary;
    if (e.kind === 'tool_call') {
      toolCalls++;
      const id = e.ids.toolCall;
      if (id !== undefined && !answered.has(id)) {
        defects.push({
          severity: 'warning',
          kind: 'orphan_tool_call',
          file: e.file,
          line: e.lineNumber,
          message: `tool call ${e.toolName ?? '?'} (${id}) has no tool_result with its tool_use_id in this session`,
          sessionId: facts.id,
        });
      }
    }
    if (e.kind === 'tool_result' && e.toolStatus === 'error') toolErrors++;
    if (e.kind === 'error') errors++;
    if (e.kind === 'warning') warnings++;
    if (e.kind === 'compaction') compactions++;
  }

  const attrs: Record<string, unknown> = { orphanToolCalls: defects.length, interruptions };
  const subagents = subagentLinks(events);
  if (subagents.length > 0) attrs.subagents = subagents;
  if (cacheWrite5m > 0) attrs.cacheWrite5m = cacheWrite5m;
  if (cacheWrite1h > 0) attrs.cacheWrite1h = cacheWrite1h;

  const summary: SessionSummary = {
    status: sessionStatus(events, answered),
    startedAt: keyToIso(startedAt),
    endedAt: keyToIso(endedAt),
    turnCount,
    firstUserMessage,
    lastResponsePreview,
    models,
    tokens,
    llmCalls: chosen.size,
    eventCount: events.length,
    toolCalls,
    toolErrors,
    errors,
    warnings: warnings + defects.length,
    compactions,
    attrs,
  };
  return { summary, defects, calls: llmCalls(events, isMirror), dropUsage: [...dropped] };
}
