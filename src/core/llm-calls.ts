// The one rule that turns usage-carrying events into LLM calls, each counted once: the events of a
// session that share a usage key are records of one call (Claude Code writes a response over
// several lines, the output growing as it streams), and the record with the largest total stands
// for it (ccusage's rule). On a tie the earlier record wins: one without a time first, then by
// time, then by sequence. Summarisers call it; the store only keeps the rows it returns.

import type { CallTokens, LlmCall, StoredEvent } from './events.js';
import { tokenTotal, type TokenCounts } from './model.js';

/**
 * A value a log recorded as a number: finite numbers as they are, true/false as 1/0, plain
 * decimal text ("0.0123", " 7.5 ") as its number; anything else null. Parsers store numbers, so
 * the other cases only guard hand-edited or foreign stores.
 */
export function recordedNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v !== 'string') return null;
  const t = v.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** A usage-carrying event's tokens as the price table reads them. */
export function callTokensOf(e: StoredEvent): CallTokens {
  const u = e.usage!;
  return {
    input: u.input,
    output: u.output,
    cacheWrite: u.cacheWrite,
    cacheWrite1h: recordedNumber(e.attrs.cacheWrite1h) ?? 0,
    cacheRead: u.cacheRead,
    reasoning: u.reasoning ?? 0,
  };
}

function total(e: StoredEvent): number {
  return tokenTotal(e.usage!);
}

/** Whether `a` is the earlier of two records with the same total. */
function earlier(a: StoredEvent, b: StoredEvent): boolean {
  if (a.tsKey !== b.tsKey) return a.tsKey === null ? true : b.tsKey === null ? false : a.tsKey < b.tsKey;
  return a.seq < b.seq;
}

/**
 * The session's LLM calls: per usage key, the chosen record as a call row, in sequence order.
 * `isMirror` marks records that copy another session's call: a call is a mirror when every one of its
 * records is (see LlmCall.mirror).
 *
 * @example llmCalls(events) // [{ seq: 4, key: 'msg_1:req_1', input: 10, output: 30, … }]
 */
export function llmCalls(events: readonly StoredEvent[], isMirror: (e: StoredEvent) => boolean = () => false): LlmCall[] {
  const chosen = new Map<string, StoredEvent>();
  /** Keys the session records first-hand at least once: such a call is its own, whichever record is chosen. */
  const firstHand = new Set<string>();
  for (const e of events) {
    if (!e.usage) continue;
    if (!isMirror(e)) firstHand.add(e.usage.key);
    const prev = chosen.get(e.usage.key);
    if (!prev || total(e) > total(prev) || (total(e) === total(prev) && earlier(e, prev))) chosen.set(e.usage.key, e);
  }
  return [...chosen.values()]
    .sort((a, b) => a.seq - b.seq)
    .map((e) => {
      const u = e.usage!;
      return {
        seq: e.seq,
        key: u.key,
        mirror: !firstHand.has(u.key),
        tsKey: e.tsKey,
        model: u.model,
        ...callTokensOf(e),
        costUsd: recordedNumber(e.attrs.costUsd),
      };
    });
}

/** Keys of the calls a session records first-hand (not as a mirror of another session's call). */
export function firstHandKeys(calls: readonly LlmCall[]): string[] {
  return calls.filter((c) => !c.mirror).map((c) => c.key);
}

/**
 * The tokens of a session's calls added up by kind (`reasoning` only when some call has it), the
 * one sum every summariser reports as its session's own tokens.
 *
 * @example callTokens(llmCalls(events)) // { input: 120, output: 30, cacheWrite: 0, cacheRead: 900 }
 */
export function callTokens(calls: readonly Pick<LlmCall, 'input' | 'output' | 'cacheWrite' | 'cacheRead' | 'reasoning'>[]): TokenCounts {
  const tokens: TokenCounts = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
  let reasoning = 0;
  for (const c of calls) {
    tokens.input += c.input;
    tokens.output += c.output;
    tokens.cacheWrite += c.cacheWrite;
    tokens.cacheRead += c.cacheRead;
    reasoning += c.reasoning ?? 0;
  }
  if (reasoning > 0) tokens.reasoning = reasoning;
  return tokens;
}
