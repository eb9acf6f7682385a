// Multi-stage compaction (seed §7): when a conversation no longer fits the effective input limit,
// try each stage in turn and stop at the first whose result fits.
//
//   0   the deterministic pass over command output (deterministic.ts)
//   1   system prompt + summary of the dropped messages + the recent tail within keepRecentTokens
//   2   the same with the tail cut to 60% of keepRecentTokens
//   2b  … 40%
//   3   a shorter summary and only the last turn (from the last user message), cut to what fits
//   4   fail closed: nothing fits; the session ends the turn as budget_exhausted
//
// The tail is taken in protocol units (an assistant message with its tool results, or one other
// message), newest first, so no cut ever separates a call from its result; at least the newest
// unit is always kept, since the model must see where the conversation stands.

import type { ChatMessage } from '../model/chat.js';
import { effectiveInputLimit, isContextManagementOff, resolveContextBudget, TokenLedger, type ContextBudgetSettings, type ContextManagementMode } from './budget.js';
import { applyDeterministicCompaction } from './deterministic.js';
import { adjustKeepFromForToolIntegrity, leadingSystemCount, unitStarts } from './protocol.js';
import { buildCompactionSummary, type SummaryStyle } from './summary.js';

export type CompactionStage = 'none' | '0' | '1' | '2' | '2b' | '3' | '4';

export interface CompactionResult {
  /** What to send (and keep as the conversation); on failure, the input unchanged. */
  messages: readonly ChatMessage[];
  stage: CompactionStage;
  tokensBefore: number;
  /** Tokens of `messages`; on failure, of the smallest result any stage reached. */
  tokensAfter: number;
  /** True at stage 4: even the most aggressive stage does not fit. The session maps it to budget_exhausted. */
  failed: boolean;
  /** The summary written (null when no message was dropped). */
  summary: string | null;
  /** How many messages the summary replaced. */
  droppedMessages: number;
  /** Why it failed, as a sentence (null when it did not). */
  reason: string | null;
}

export interface CompactionOptions {
  mode?: ContextManagementMode;
  /** Reuse the session's ledger so kept messages are not estimated again. */
  ledger?: TokenLedger;
}

/** The fraction of keepRecentTokens each tail stage keeps. */
const TAIL_STAGES: readonly { stage: '1' | '2' | '2b'; fraction: number }[] = [
  { stage: '1', fraction: 1 },
  { stage: '2', fraction: 0.6 },
  { stage: '2b', fraction: 0.4 },
];

interface Attempt {
  messages: readonly ChatMessage[];
  tokens: number;
  summary: string | null;
  dropped: number;
}

/**
 * Compact `messages` until they fit the effective input limit of `settings`. Pure: the input is not
 * changed; kept messages are the same objects.
 *
 * @example
 * const r = compactMessagesMultiStage(conversation, budget, { ledger });
 * if (r.failed) return endTurn('budget_exhausted', r.reason);
 * conversation = [...r.messages];
 */
export function compactMessagesMultiStage(messages: readonly ChatMessage[], settings: Partial<ContextBudgetSettings> = {}, options: CompactionOptions = {}): CompactionResult {
  const budget = resolveContextBudget(settings);
  const limit = effectiveInputLimit(budget);
  const ledger = options.ledger ?? new TokenLedger();
  const tokensBefore = ledger.total(messages);
  const done = (stage: CompactionStage, a: Attempt): CompactionResult => ({
    messages: a.messages,
    stage,
    tokensBefore,
    tokensAfter: a.tokens,
    failed: false,
    summary: a.summary,
    droppedMessages: a.dropped,
    reason: null,
  });
  const fail = (tokensAfter: number, reason: string): CompactionResult => ({
    messages,
    stage: '4',
    tokensBefore,
    tokensAfter,
    failed: true,
    summary: null,
    droppedMessages: 0,
    reason,
  });

  if (tokensBefore <= limit) return done('none', { messages, tokens: tokensBefore, summary: null, dropped: 0 });
  if (isContextManagementOff(options.mode ?? 'normal')) {
    return fail(tokensBefore, `the conversation holds about ${tokensBefore} tokens, over the input limit of ${limit}, and context management is off`);
  }

  const base = applyDeterministicCompaction(messages);
  const baseTokens = ledger.total(base);
  if (baseTokens <= limit) return done('0', { messages: base, tokens: baseTokens, summary: null, dropped: 0 });

  const head = leadingSystemCount(base);
  const headTokens = ledger.total(base.slice(0, head));
  if (headTokens > limit) return fail(baseTokens, `the system prompt alone holds about ${headTokens} tokens, over the input limit of ${limit}`);

  const starts = unitStarts(base, head);
  const unitTokens = starts.map((s, i) => {
    let n = 0;
    for (let k = s, end = starts[i + 1] ?? base.length; k < end; k++) n += ledger.tokensOf(base[k]!);
    return n;
  });
  /** Where a tail of at most `budget` tokens starts (never before `floor`; at least the newest unit). */
  const tailStart = (tailBudget: number, floor = head): number => {
    let sum = 0;
    let keepFrom = base.length;
    for (let u = starts.length - 1; u >= 0; u--) {
      const s = starts[u]!;
      if (s < floor) break;
      const next = sum + unitTokens[u]!;
      if (next > tailBudget && keepFrom < base.length) break;
      sum = next;
      keepFrom = s;
    }
    return keepFrom;
  };
  const attempt = (keepFrom: number, style: SummaryStyle): Attempt => {
    const from = adjustKeepFromForToolIntegrity(base, keepFrom);
    const dropped = base.slice(head, from);
    const summary = dropped.length > 0 ? buildCompactionSummary(dropped, { tokens: ledger.total(dropped), style }) : null;
    const out = withSummary(base.slice(0, head), summary, base.slice(from));
    return { messages: out, tokens: ledger.total(out), summary, dropped: dropped.length };
  };

  let smallest = baseTokens;
  for (const { stage, fraction } of TAIL_STAGES) {
    const a = attempt(tailStart(budget.keepRecentTokens * fraction), 'full');
    if (a.tokens <= limit) return done(stage, a);
    smallest = Math.min(smallest, a.tokens);
  }

  // Stage 3: the last turn only, and only as much of it as leaves room for the short summary.
  let lastTurn = head;
  for (let u = starts.length - 1; u >= 0; u--) {
    if (base[starts[u]!]!.role === 'user') {
      lastTurn = starts[u]!;
      break;
    }
  }
  let a = attempt(tailStart(Number.POSITIVE_INFINITY, lastTurn), 'short');
  const summaryTokens = a.summary === null ? 0 : ledger.tokensOf({ role: 'user', content: a.summary });
  let room = limit - headTokens - summaryTokens;
  // A shorter tail drops more messages, so the summary may grow a little: shrink the room by the
  // overshoot and try again (a few times; the short summary's size is bounded).
  for (let tries = 0; a.tokens > limit && tries < 3; tries++) {
    const keepFrom = tailStart(room, lastTurn);
    a = attempt(keepFrom, 'short');
    room -= a.tokens - limit;
  }
  if (a.tokens <= limit) return done('3', a);
  smallest = Math.min(smallest, a.tokens);
  return fail(smallest, `even the last turn's newest messages with a short summary need about ${smallest} tokens, over the input limit of ${limit}`);
}

/**
 * The head, the summary and the tail as one conversation. The summary is a user message (the role
 * every provider accepts right after the system prompt); when the tail starts with a user message
 * the two are joined, so that roles still alternate for chat templates that insist on it.
 */
function withSummary(head: readonly ChatMessage[], summary: string | null, tail: readonly ChatMessage[]): ChatMessage[] {
  if (summary === null) return [...head, ...tail];
  const first = tail[0];
  if (first?.role === 'user') return [...head, { role: 'user', content: `${summary}\n\n${first.content}` }, ...tail.slice(1)];
  return [...head, { role: 'user', content: summary }, ...tail];
}
