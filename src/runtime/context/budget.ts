// The context budget: how many tokens a model request may hold, and a ledger that knows each
// message's token count so that checking the budget before every model call costs map lookups,
// not a re-estimate of the whole conversation.

import type { ChatMessage } from '../model/chat.js';
import { estimateMessageTokens } from '../metrics/estimate.js';

/** Budget settings (seed §7); the optional ones take their defaults when absent. */
export interface ContextBudgetSettings {
  contextWindowTokens: number;
  reservedOutputTokens: number;
  keepRecentTokens: number;
  maxSingleReadResultTokens: number;
  maxTotalReadResultTokensPerTurn: number;
  keepRecentToolTurns?: number;
  /** Fraction of the effective input limit past which assembly compacts old tool results: 0 = always, 1 = never. */
  assemblyCompactionThreshold?: number;
}

export type ResolvedContextBudget = Required<ContextBudgetSettings>;

export const DEFAULT_CONTEXT_BUDGET: ResolvedContextBudget = Object.freeze({
  contextWindowTokens: 131_072,
  reservedOutputTokens: 8_192,
  keepRecentTokens: 20_000,
  maxSingleReadResultTokens: 12_000,
  maxTotalReadResultTokensPerTurn: 96_000,
  keepRecentToolTurns: 3,
  assemblyCompactionThreshold: 0.8,
});

/**
 * How much context management a session wants. `none` and `off` (the same) rewrite nothing: a
 * conversation over the limit fails closed. `light` runs the deterministic pass and the summarising
 * stages, but assembly compacts old tool results only near the window's end (95%). `normal`
 * (the default) compacts old tool results from `assemblyCompactionThreshold` on.
 */
export type ContextManagementMode = 'none' | 'off' | 'light' | 'normal';

export const CONTEXT_MANAGEMENT_MODES: readonly ContextManagementMode[] = ['none', 'off', 'light', 'normal'];

/** The light mode's assembly threshold: old results stay verbatim until the window is nearly full. */
export const LIGHT_ASSEMBLY_THRESHOLD = 0.95;

export function isContextManagementOff(mode: ContextManagementMode): boolean {
  return mode === 'none' || mode === 'off';
}

/**
 * Settings with defaults filled in. Throws on values that cannot be a budget, naming the field.
 *
 * @example resolveContextBudget({ contextWindowTokens: 32_768 }).keepRecentToolTurns // 3
 */
export function resolveContextBudget(settings: Partial<ContextBudgetSettings> = {}): ResolvedContextBudget {
  const out: ResolvedContextBudget = { ...DEFAULT_CONTEXT_BUDGET };
  for (const [key, value] of Object.entries(settings) as [keyof ContextBudgetSettings, number | undefined][]) {
    if (value === undefined) continue;
    if (!(key in DEFAULT_CONTEXT_BUDGET)) throw new Error(`context budget: unknown setting "${key}"`);
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new Error(`context budget: ${key} must be a finite number ≥ 0, got ${JSON.stringify(value)}`);
    }
    out[key] = value;
  }
  if (out.assemblyCompactionThreshold > 1) {
    throw new Error(`context budget: assemblyCompactionThreshold is a fraction of the input limit (0–1), got ${out.assemblyCompactionThreshold}`);
  }
  if (!Number.isInteger(out.keepRecentToolTurns)) {
    throw new Error(`context budget: keepRecentToolTurns must be a whole number, got ${out.keepRecentToolTurns}`);
  }
  return out;
}

/** The tokens a request's input may hold: the window minus what is kept for the answer (never below 0). */
export function effectiveInputLimit(settings: Pick<ContextBudgetSettings, 'contextWindowTokens' | 'reservedOutputTokens'>): number {
  return Math.max(0, settings.contextWindowTokens - settings.reservedOutputTokens);
}

/**
 * Per-message token counts, remembered by message identity. Messages are treated as immutable:
 * code that changes a message in place calls `invalidate(message)`; a rewritten message is a new
 * object and is estimated once. Totals are sums of remembered counts, so a budget check on a
 * conversation of a thousand messages estimates only the messages added since the last check.
 *
 * @example const ledger = new TokenLedger(); ledger.total(messages) <= effectiveInputLimit(budget)
 */
export class TokenLedger {
  private readonly counts = new WeakMap<ChatMessage, number>();
  private estimated = 0;

  constructor(private readonly estimate: (message: ChatMessage) => number = estimateMessageTokens) {}

  tokensOf(message: ChatMessage): number {
    let n = this.counts.get(message);
    if (n === undefined) {
      n = this.estimate(message);
      this.counts.set(message, n);
      this.estimated++;
    }
    return n;
  }

  total(messages: readonly ChatMessage[]): number {
    let sum = 0;
    for (const m of messages) sum += this.tokensOf(m);
    return sum;
  }

  /** Forget a message's count (after changing it in place). */
  invalidate(message: ChatMessage): void {
    this.counts.delete(message);
  }

  /** How many messages this ledger has estimated so far (a test's window into the caching). */
  get estimates(): number {
    return this.estimated;
  }
}
