// A Codex session's summary from its stored events.
//
// Status: a turn aborted after the last prompt → interrupted; an error after it → errored; a
// turn completed after it → completed. Rollouts without turn events (Codex Desktop, older CLIs):
// an unanswered tool call at the end → interrupted; an assistant message after the last prompt
// with nothing pending → completed; else active.
//
// Usage: every llm_call event is one call (the parser counted each once). A rollout without a
// single token_count records no usage: its tokens stay 0 with `usage: 'unknown'` in the summary's
// attrs, so a reader never takes the 0 for a fact.

import { eventTimeSpan } from '../../core/events.js';
import type { Defect, SessionStatus, TokenCounts } from '../../core/model.js';
import { keyToIso } from '../../core/time.js';
import type { StoredEvent, SummaryInput, SummaryOutput } from '../importer.js';
import { isToolFailure, recordsUsage, unansweredCalls, userTurns } from './session-view.js';

function lastIndex(events: readonly StoredEvent[], ok: (e: StoredEvent) => boolean): number {
  for (let i = events.length - 1; i >= 0; i--) if (ok(events[i]!)) return i;
  return -1;
}

function statusOf(events: readonly StoredEvent[], lastPrompt: number, pending: number): SessionStatus {
  const aborted = lastIndex(events, (e) => e.attrs.turnEnd === 'aborted');
  const errored = lastIndex(events, (e) => e.kind === 'error');
  const completed = lastIndex(events, (e) => e.attrs.turnEnd === 'complete');
  const latest = Math.max(aborted, errored, completed);
  if (latest > lastPrompt) {
    if (latest === aborted) return 'interrupted';
    if (latest === errored) return 'errored';
    return 'completed';
  }
  if (pending > 0) return 'interrupted';
  const answered = lastIndex(events, (e) => e.kind === 'assistant_message');
  return answered > lastPrompt ? 'completed' : 'active';
}

export function summarizeCodex(input: SummaryInput): SummaryOutput {
  const { events, facts } = input;
  const tokens: TokenCounts = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
  const models: string[] = [];
  let calls = 0;
  let reasoning = 0;
  let fallbackCalls = 0;
  for (const e of events) {
    if (!e.usage) continue;
    calls++;
    tokens.input += e.usage.input;
    tokens.output += e.usage.output;
    tokens.cacheRead += e.usage.cacheRead;
    tokens.cacheWrite += e.usage.cacheWrite;
    if (typeof e.attrs.reasoning === 'number') reasoning += e.attrs.reasoning;
    if (e.attrs.modelFallback === true) fallbackCalls++;
    if (e.usage.model && !models.includes(e.usage.model)) models.push(e.usage.model);
  }
  // A rollout without calls still names its model in turn_context.
  if (models.length === 0) {
    for (const e of events) if (e.type === 'turn_context' && typeof e.attrs.model === 'string' && !models.includes(e.attrs.model)) models.push(e.attrs.model);
  }

  const turns = userTurns(events);
  const lastPrompt = turns.length > 0 ? events.lastIndexOf(turns[turns.length - 1]!) : -1;
  const pending = unansweredCalls(events);
  // Only calls after the last prompt can still be running; earlier ones were left behind.
  const pendingAtEnd = pending.filter((p) => events.indexOf(p.event) > lastPrompt);
  const defects: Defect[] = pending.map(({ event, id }) => ({
    severity: 'warning',
    kind: 'orphan_tool_call',
    file: event.file,
    line: event.lineNumber,
    message: `${event.toolName ?? 'tool'} call ${id} has no output record: the session was interrupted or is still running it`,
    sessionId: facts.id,
  }));

  const { first, last } = eventTimeSpan(events);
  const lastAnswer = lastIndex(events, (e) => e.kind === 'assistant_message');
  const usageKnown = recordsUsage(events);
  const toolCalls = events.filter((e) => e.kind === 'tool_call');

  return {
    summary: {
      status: statusOf(events, lastPrompt, pendingAtEnd.length),
      startedAt: keyToIso(first),
      endedAt: keyToIso(last),
      turnCount: turns.length,
      firstUserMessage: turns[0]?.summary ?? null,
      lastResponsePreview: lastAnswer >= 0 ? events[lastAnswer]!.summary : null,
      models,
      tokens,
      llmCalls: calls,
      eventCount: events.length,
      toolCalls: toolCalls.length,
      toolErrors: events.filter(isToolFailure).length,
      errors: events.filter((e) => e.kind === 'error').length,
      warnings: events.filter((e) => e.kind === 'warning').length,
      compactions: events.filter((e) => e.kind === 'compaction').length || events.filter((e) => e.attrs.mirrorOf === 'compaction').length,
      attrs: {
        // 'recorded': the token_counts are the calls; 'unknown': the rollout has none (Codex
        // Desktop writes none), so 0 tokens here means "not recorded", not "nothing spent".
        usage: usageKnown ? 'recorded' : 'unknown',
        reasoningTokens: reasoning,
        ...(fallbackCalls > 0 ? { modelFallbackCalls: fallbackCalls } : {}),
        unansweredToolCalls: pending.length,
        turnsAborted: events.filter((e) => e.attrs.turnEnd === 'aborted').length,
      },
    },
    defects,
  };
}
