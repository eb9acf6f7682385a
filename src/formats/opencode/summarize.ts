// A session's summary from its stored events: status, times, turns, tokens (each assistant message
// one LLM call, core/llm-calls.ts), tools and problems, and the tool calls left without a result.

import type { StoredEvent } from '../../core/events.js';
import { callTokens, llmCalls } from '../../core/llm-calls.js';
import type { Defect, SessionStatus } from '../../core/model.js';
import { keyToIso } from '../../core/time.js';
import { eventTallies } from '../shared/event-tallies.js';
import type { SummaryInput, SummaryOutput } from '../importer.js';
import { userTurns } from './turns.js';

const ABORTED = 'MessageAbortedError';

/** Tool calls that never got a result (still pending or running when the log stops). */
function unanswered(events: readonly StoredEvent[]): StoredEvent[] {
  const answered = new Set<string>();
  for (const e of events) if (e.kind === 'tool_result' && e.ids.toolCall) answered.add(e.ids.toolCall);
  return events.filter((e) => e.kind === 'tool_call' && !(e.ids.toolCall && answered.has(e.ids.toolCall)));
}

/**
 * How the session stands, from its last assistant message: aborted by the user → interrupted;
 * another error → errored; a prompt after it → active (waiting for the answer); still streaming
 * or stopped after a tool-calls step → interrupted when a tool call was left without a result,
 * else active; finished (`finish` other than tool-calls, or none on older builds) → completed.
 */
export function sessionStatus(events: readonly StoredEvent[], turns: readonly StoredEvent[], orphans: number): SessionStatus {
  let lastIndex = -1;
  events.forEach((e, i) => {
    if (e.kind === 'llm_call') lastIndex = i;
  });
  if (lastIndex === -1) return 'active';
  const last = events[lastIndex]!;
  if (last.attrs.errorName === ABORTED) return 'interrupted';
  if (typeof last.attrs.errorName === 'string') return 'errored';
  const lastTurn = turns[turns.length - 1];
  if (lastTurn && events.indexOf(lastTurn) > lastIndex) return 'active';
  if (last.attrs.completed !== true || last.attrs.finish === 'tool-calls') return orphans > 0 ? 'interrupted' : 'active';
  return 'completed';
}

export function summarizeOpenCode(input: SummaryInput): SummaryOutput {
  const { facts, events } = input;
  const calls = llmCalls(events);
  const tokens = callTokens(calls);
  const models: string[] = [];
  let reasoning = 0;
  let recordedCost = 0;
  let startedAt: string | null = null;
  let endedAt: string | null = null;
  let lastResponse: string | null = null;
  for (const e of events) {
    if (e.tsKey !== null) {
      if (startedAt === null || e.tsKey < startedAt) startedAt = e.tsKey;
      if (endedAt === null || e.tsKey > endedAt) endedAt = e.tsKey;
    }
    if (e.kind === 'llm_call') {
      const model = e.usage?.model ?? (typeof e.attrs.model === 'string' ? e.attrs.model : null);
      if (model && !models.includes(model)) models.push(model);
      if (typeof e.attrs.reasoningTokens === 'number') reasoning += e.attrs.reasoningTokens;
      if (typeof e.attrs.costUsd === 'number') recordedCost += e.attrs.costUsd;
    }
    if (e.kind === 'assistant_message' && e.summary !== '') lastResponse = e.summary;
  }
  const turns = userTurns(events);
  const orphans = unanswered(events);
  const defects: Defect[] = orphans.map((e) => ({
    severity: 'warning',
    kind: 'orphan_tool_call',
    file: e.file,
    line: e.lineNumber,
    message: `${e.toolName ?? 'tool'} call ${e.ids.toolCall ?? '(no id)'} has no result (state ${String(e.attrs.status ?? 'unknown')}): the session was interrupted or is still running it`,
    sessionId: facts.id,
  }));
  return {
    summary: {
      status: sessionStatus(events, turns, orphans.length),
      startedAt: keyToIso(startedAt),
      endedAt: keyToIso(endedAt),
      turnCount: turns.length,
      firstUserMessage: turns[0]?.summary || null,
      lastResponsePreview: lastResponse,
      models,
      tokens,
      llmCalls: events.filter((e) => e.kind === 'llm_call').length,
      ...eventTallies(events),
      attrs: {
        unfinishedToolCalls: orphans.length,
        reasoningTokens: reasoning,
        // What OpenCode itself recorded (often 0): reports price calls from the table instead.
        recordedCostUsd: Math.round(recordedCost * 1e9) / 1e9,
      },
    },
    defects,
  };
}
