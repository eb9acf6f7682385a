// A runtime session's summary from its stored events.
//
// Status (the rule every format follows: what happened after the last prompt decides, never the
// clock): the last turn_end after the last prompt says it — completed or handoff → completed;
// error, budget_exhausted, step_limit → errored; aborted → interrupted. No turn_end after the last
// prompt: the turn is still running (or its process died mid-step) → active.
//
// Usage: each model_call record is one LLM call, keyed by its line (llmCalls keeps each once).

import { eventTimeSpan } from '../../core/events.js';
import { callTokens, llmCalls } from '../../core/llm-calls.js';
import type { Defect, SessionStatus } from '../../core/model.js';
import { keyToIso } from '../../core/time.js';
import { eventTallies } from '../shared/event-tallies.js';
import type { StoredEvent, SummaryInput, SummaryOutput } from '../importer.js';
import { FAILED_STATES } from './parser.js';
import { turnEnds, unansweredCalls, userTurns } from './session-view.js';

export function statusOf(events: readonly StoredEvent[], lastPrompt: StoredEvent | undefined): SessionStatus {
  const ends = turnEnds(events);
  const last = ends[ends.length - 1];
  if (!last || (lastPrompt && last.seq < lastPrompt.seq)) return 'active';
  const state = String(last.attrs.terminalState);
  if (state === 'aborted') return 'interrupted';
  if (FAILED_STATES.has(state)) return 'errored';
  return 'completed';
}

export function summarizeHindsight(input: SummaryInput): SummaryOutput {
  const { events, facts } = input;
  const calls = llmCalls(events);
  const models: string[] = [];
  let reasoning = 0;
  let recordedCost = 0;
  let estimated = 0;
  for (const e of events) {
    if (e.kind !== 'llm_call' || !e.usage) continue;
    if (e.usage.model && !models.includes(e.usage.model)) models.push(e.usage.model);
    if (typeof e.attrs.reasoningTokens === 'number') reasoning += e.attrs.reasoningTokens;
    if (typeof e.attrs.costUsd === 'number') recordedCost += e.attrs.costUsd;
    if (e.attrs.usageSource === 'estimate') estimated++;
  }
  const startModel = typeof facts.attrs?.model === 'string' ? facts.attrs.model : null;
  if (models.length === 0 && startModel) models.push(startModel);

  const turns = userTurns(events);
  const lastPrompt = turns[turns.length - 1];
  const orphans = unansweredCalls(events);
  const defects: Defect[] = orphans.map((e) => ({
    severity: 'warning',
    kind: 'orphan_tool_call',
    file: e.file,
    line: e.lineNumber,
    message: `${e.toolName ?? 'tool'} call ${e.ids.toolCall} has no tool_result: the session was stopped while running it, or is still running it`,
    sessionId: facts.id,
  }));
  const { first, last } = eventTimeSpan(events);
  let lastAnswer: StoredEvent | undefined;
  for (const e of events) if (e.kind === 'assistant_message' && e.attrs.empty !== true) lastAnswer = e;
  const ends = turnEnds(events);
  const str = (k: string) => (typeof facts.attrs?.[k] === 'string' ? (facts.attrs[k] as string) : null);

  return {
    summary: {
      status: statusOf(events, lastPrompt),
      startedAt: keyToIso(first),
      endedAt: keyToIso(last),
      turnCount: turns.length,
      firstUserMessage: turns[0]?.summary ?? null,
      lastResponsePreview: lastAnswer?.summary ?? null,
      models,
      tokens: callTokens(calls),
      llmCalls: calls.length,
      ...eventTallies(events),
      attrs: {
        // How the runtime was started (ask, chat, run): inspect_metrics shows it as the Mode column.
        mode: str('mode'),
        provider: str('provider'),
        terminalState: ends.length > 0 ? String(ends[ends.length - 1]!.attrs.terminalState) : null,
        turnsEnded: ends.length,
        reasoningTokens: reasoning,
        recordedCostUsd: Math.round(recordedCost * 1e9) / 1e9,
        estimatedCalls: estimated,
        recoveries: events.filter((e) => e.type === 'recovery').length,
        handoffs: events.filter((e) => e.kind === 'subagent_start').length,
        unansweredToolCalls: orphans.length,
      },
    },
    defects,
    calls,
  };
}
