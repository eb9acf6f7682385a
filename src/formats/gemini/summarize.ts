// A Gemini session's summary and its whole-session findings (orphan tool calls), from the stored
// events alone.
//
// Status, read back from the end past bookkeeping (token records, rewinds, compactions, notices):
//   - a cancellation notice ("Request cancelled.")               → interrupted
//   - a tool call that never got a result                        → interrupted
//   - an error message                                           → errored
//   - a reply's text with no tool call of that reply pending     → completed
//   - anything else (a prompt, a tool result, a thought)         → active (waiting or running)

import { eventTimeSpan } from '../../core/events.js';
import { tokenTotal, type Defect, type SessionStatus, type TokenCounts } from '../../core/model.js';
import { keyToIso } from '../../core/time.js';
import { eventTallies } from '../shared/event-tallies.js';
import type { StoredEvent, SummaryInput, SummaryOutput } from '../importer.js';

const QUIET_KINDS = new Set(['llm_call', 'compaction', 'warning', 'other', 'session_start']);

const isHumanTurn = (e: StoredEvent) => e.kind === 'user_message' && e.attrs.nonHuman !== true;

function answeredCalls(events: readonly StoredEvent[]): Set<string> {
  const out = new Set<string>();
  for (const e of events) if (e.kind === 'tool_result' && e.ids.toolCall) out.add(e.ids.toolCall);
  return out;
}

export function geminiStatus(events: readonly StoredEvent[], answered: Set<string>): SessionStatus {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (QUIET_KINDS.has(e.kind)) continue;
    if (e.kind === 'system') {
      if (e.attrs.cancelled === true) return 'interrupted';
      continue; // other notices, rewinds
    }
    switch (e.kind) {
      case 'error':
        return 'errored';
      case 'tool_call':
        return e.ids.toolCall && answered.has(e.ids.toolCall) ? 'active' : 'interrupted';
      case 'assistant_message': {
        const message = e.ids.message;
        const pending = events.some((c) => c.kind === 'tool_call' && c.ids.message === message && c.ids.toolCall && !answered.has(c.ids.toolCall));
        const calledTools = events.some((c) => c.kind === 'tool_call' && c.ids.message === message);
        if (pending) return 'interrupted';
        return calledTools ? 'active' : 'completed';
      }
      default:
        return 'active';
    }
  }
  return 'active';
}

/** Each LLM call once: the largest usage record per key (the first on a tie). */
function usageOf(events: readonly StoredEvent[]): { tokens: TokenCounts; calls: number; models: string[]; thoughts: number } {
  const byKey = new Map<string, StoredEvent>();
  const size = (e: StoredEvent) => tokenTotal(e.usage!);
  const models: string[] = [];
  for (const e of events) {
    const model = e.usage?.model ?? (typeof e.attrs.model === 'string' ? e.attrs.model : null);
    if (model && !models.includes(model)) models.push(model);
    if (!e.usage) continue;
    const prev = byKey.get(e.usage.key);
    if (!prev || size(e) > size(prev)) byKey.set(e.usage.key, e);
  }
  const tokens: TokenCounts = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
  let reasoning = 0;
  let thoughts = 0;
  for (const e of byKey.values()) {
    tokens.input += e.usage!.input;
    tokens.output += e.usage!.output;
    tokens.cacheWrite += e.usage!.cacheWrite;
    tokens.cacheRead += e.usage!.cacheRead;
    reasoning += e.usage!.reasoning ?? 0;
    if (typeof e.attrs.thoughts === 'number') thoughts += e.attrs.thoughts;
  }
  if (reasoning > 0) tokens.reasoning = reasoning;
  return { tokens, calls: byKey.size, models, thoughts };
}

export function summarizeGemini(input: SummaryInput): SummaryOutput {
  const { facts, events } = input;
  const answered = answeredCalls(events);
  const usage = usageOf(events);
  const calls = events.filter((e) => e.kind === 'tool_call');
  const orphans = calls.filter((e) => e.ids.toolCall && !answered.has(e.ids.toolCall));
  const humans = events.filter(isHumanTurn);
  const { first, last } = eventTimeSpan(events);
  const lastReply = [...events].reverse().find((e) => e.kind === 'assistant_message' && e.summary);
  const defects: Defect[] = orphans.map((e) => ({
    severity: 'warning',
    kind: 'orphan_tool_call',
    file: e.file,
    line: e.lineNumber,
    message: `${e.toolName ?? 'tool'} call ${e.ids.toolCall} has no result: the session was interrupted or is still running that tool`,
    sessionId: facts.id,
  }));
  return {
    summary: {
      status: geminiStatus(events, answered),
      startedAt: keyToIso(first),
      endedAt: keyToIso(last),
      turnCount: humans.length,
      firstUserMessage: humans[0]?.summary ?? null,
      lastResponsePreview: lastReply?.summary ?? null,
      models: usage.models,
      tokens: usage.tokens,
      llmCalls: usage.calls,
      ...eventTallies(events),
      attrs: {
        // The thinking tokens Gemini wrote (tokens.reasoning holds them, with any unnamed remainder of a total).
        thoughtTokens: usage.thoughts,
        cancellations: events.filter((e) => e.attrs.cancelled === true).length,
        rewinds: events.filter((e) => e.type === '$rewindTo').length,
        unfinishedToolCalls: orphans.length,
      },
    },
    defects,
  };
}
