// A session's summary and the findings only the whole session shows (orphan tool calls, a
// transcript rewound behind its events), from the stored events and facts alone.

import type { Defect, SessionStatus, TokenCounts } from '../../core/model.js';
import { llmCalls } from '../../core/llm-calls.js';
import { keyToIso, toTimeKey } from '../../core/time.js';
import type { StoredEvent, SummaryInput, SummaryOutput } from '../importer.js';
import { isErrorLevel, isToolFailure, orphanCalls, viewOf, type SessionView } from './session-view.js';

function tokensOf(log: StoredEvent[]): { tokens: TokenCounts; calls: number; models: string[]; rawInput: number; cost: number } {
  // Keys are unique per llm:response line; keeping the largest per key follows the contract.
  const byKey = new Map<string, StoredEvent>();
  let unkeyed = 0;
  const models: string[] = [];
  for (const e of log) {
    if (e.kind !== 'llm_call') continue;
    const model = e.usage?.model ?? (typeof e.attrs.model === 'string' ? e.attrs.model : null);
    if (model && !models.includes(model)) models.push(model);
    if (!e.usage) {
      unkeyed++;
      continue;
    }
    const prev = byKey.get(e.usage.key);
    const size = (x: StoredEvent) => (x.usage ? x.usage.input + x.usage.output + x.usage.cacheRead + x.usage.cacheWrite : 0);
    if (!prev || size(e) > size(prev)) byKey.set(e.usage.key, e);
  }
  const tokens: TokenCounts = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
  let rawInput = 0;
  let cost = 0;
  for (const e of byKey.values()) {
    const u = e.usage!;
    tokens.input += u.input;
    tokens.output += u.output;
    tokens.cacheWrite += u.cacheWrite;
    tokens.cacheRead += u.cacheRead;
    rawInput += typeof e.attrs.rawInputTokens === 'number' ? e.attrs.rawInputTokens : u.input + u.cacheRead;
    if (typeof e.attrs.costUsd === 'number') cost += e.attrs.costUsd;
  }
  return { tokens, calls: byKey.size + unkeyed, models, rawInput, cost: Math.round(cost * 1e6) / 1e6 };
}

/** Events that belong to this session's own run: a fork's transcript opens with inherited turns. */
function ownTranscript(view: SessionView, forkedAtKey: string | null): StoredEvent[] {
  if (!forkedAtKey) return view.transcript;
  return view.transcript.filter((e) => e.tsKey !== null && e.tsKey >= forkedAtKey);
}

function timeRange(view: SessionView, attrs: Record<string, unknown>): { startedAt: string | null; endedAt: string | null } {
  const forkedAt = toTimeKey(attrs.forkedAt);
  let first: string | null = null;
  let last: string | null = null;
  for (const e of [...view.log, ...ownTranscript(view, forkedAt)]) {
    if (!e.tsKey) continue;
    if (first === null || e.tsKey < first) first = e.tsKey;
    if (last === null || e.tsKey > last) last = e.tsKey;
  }
  if (first === null) return { startedAt: keyToIso(forkedAt ?? toTimeKey(attrs.created)), endedAt: null };
  return { startedAt: keyToIso(first), endedAt: keyToIso(last) };
}

/**
 * decisions.md: session:end or orchestrator:complete after the last prompt → completed; the
 * last event at ERROR level → errored; an orphan tool call and no end → interrupted; else active.
 * An orchestrator:complete with status error (logged at ERROR) is not a completion.
 */
function statusOf(view: SessionView, hasOrphan: boolean): SessionStatus {
  let lastPrompt = -1;
  view.all.forEach((e, i) => {
    if ((e.ledger === 'transcript' && e.kind === 'user_message') || (e.ledger === 'events' && e.type === 'prompt:submit')) lastPrompt = i;
  });
  const ended = view.log.some((e) => e.type === 'session:end');
  const completed = view.all.some(
    (e, i) =>
      i > lastPrompt &&
      e.ledger === 'events' &&
      (e.type === 'session:end' || (e.type === 'orchestrator:complete' && !isErrorLevel(e) && e.attrs.status !== 'error')),
  );
  if (completed) return 'completed';
  const lastLog = view.log[view.log.length - 1];
  if (lastLog && isErrorLevel(lastLog)) return 'errored';
  if (hasOrphan && !ended) return 'interrupted';
  return 'active';
}

function lastResponse(view: SessionView): string | null {
  const pick = (list: StoredEvent[], ok: (e: StoredEvent) => boolean) => {
    for (let i = list.length - 1; i >= 0; i--) if (ok(list[i]!) && list[i]!.summary) return list[i]!.summary;
    return null;
  };
  return (
    pick(view.transcript, (e) => e.kind === 'assistant_message') ??
    pick(view.log, (e) => e.type === 'prompt:complete') ??
    pick(view.log, (e) => e.type === 'content_block:end' && e.attrs.blockType === 'text')
  );
}

export function summarizeAmplifier(input: SummaryInput): SummaryOutput {
  const { facts } = input;
  const attrs = facts.attrs ?? {};
  const view = viewOf(input);
  const usage = tokensOf(view.log);
  const orphanSource = view.transcript.length > 0 ? view.transcript : view.log;
  const orphans = orphanCalls(orphanSource);
  const turnCount = view.userMessages.length > 0 ? view.userMessages.length : view.promptsSubmitted.length;
  const firstUser = view.userMessages[0] ?? view.promptsSubmitted[0];
  const models = usage.models.length > 0 ? usage.models : typeof attrs.model === 'string' ? [attrs.model] : [];

  const defects: Defect[] = orphans.map(({ event, id }) => ({
    severity: 'warning',
    kind: 'orphan_tool_call',
    file: event.file,
    line: event.lineNumber,
    message: `${event.toolName ?? 'tool'} call ${id} has no result: the session was interrupted or is still running that tool`,
    sessionId: facts.id,
  }));
  if (view.hasTranscript && view.promptsSubmitted.length > view.userMessages.length) {
    const file = view.transcript[0]?.file ?? [attrs.dir, 'transcript.jsonl'].filter((p) => typeof p === 'string' && p !== '').join('/');
    defects.push({
      severity: 'warning',
      kind: 'transcript_shorter_than_events',
      file,
      line: null,
      message: `transcript has ${view.userMessages.length} user turn(s) but events.jsonl has ${view.promptsSubmitted.length} prompt:submit: history was rewound or the transcript lost its tail`,
      sessionId: facts.id,
    });
  }

  const { startedAt, endedAt } = timeRange(view, attrs);
  return {
    summary: {
      status: statusOf(view, orphans.length > 0),
      startedAt,
      endedAt,
      turnCount,
      firstUserMessage: firstUser?.summary ?? null,
      lastResponsePreview: lastResponse(view),
      models,
      tokens: usage.tokens,
      llmCalls: usage.calls,
      eventCount: input.events.length,
      toolCalls: view.tools.filter((e) => e.kind === 'tool_call').length,
      toolErrors: view.tools.filter(isToolFailure).length,
      errors: view.log.filter(isErrorLevel).length,
      warnings: input.events.filter((e) => e.kind === 'warning').length,
      compactions: input.events.filter((e) => e.kind === 'compaction').length,
      attrs: {
        eventsLogRecords: view.log.length,
        promptsSubmitted: view.promptsSubmitted.length,
        transcriptUserMessages: view.userMessages.length,
        toolCallLedger: view.toolLedger,
        unfinishedToolCalls: orphanCalls(view.tools).length,
        sessionEnded: view.log.some((e) => e.type === 'session:end'),
        // Σ data.usage.input_tokens as Amplifier writes it (= tokens.input + tokens.cacheRead).
        rawInputTokens: usage.rawInput,
        costUsd: usage.cost,
      },
    },
    defects,
    calls: llmCalls(input.events),
  };
}
