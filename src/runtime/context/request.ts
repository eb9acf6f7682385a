// The preflight check before a model call, in one place: assemble the messages; when even the
// assembled messages pass the input limit, compact (multi-stage) and assemble again. The session
// keeps `conversation` as its new message list when a compaction happened, and ends the turn as
// budget_exhausted when it failed.

import type { ChatMessage } from '../model/chat.js';
import { assembleModelMessages, type AssemblyStats } from './assembly.js';
import { effectiveInputLimit, resolveContextBudget, TokenLedger, type ContextBudgetSettings, type ContextManagementMode } from './budget.js';
import { compactMessagesMultiStage, type CompactionResult } from './compaction.js';

export interface PreparedRequest {
  /** The messages to send (on failure, the assembled messages that did not fit). */
  messages: readonly ChatMessage[];
  stats: AssemblyStats;
  /** The conversation to keep from now on: the compacted one, or the input when nothing was compacted. */
  conversation: readonly ChatMessage[];
  /** The compaction that ran, or null when the assembled messages fitted. */
  compaction: CompactionResult | null;
  /** True when nothing fits: the turn ends as budget_exhausted. */
  failed: boolean;
}

/**
 * Messages for the next model call that fit the effective input limit, or `failed`.
 *
 * @example
 * const r = prepareModelMessages(conversation, budget, { ledger });
 * if (r.failed) return finish('budget_exhausted', r.compaction?.reason);
 * conversation = [...r.conversation];
 * await client.chat({ messages: r.messages, tools });
 */
export function prepareModelMessages(
  conversation: readonly ChatMessage[],
  settings: Partial<ContextBudgetSettings> = {},
  options: { ledger?: TokenLedger; mode?: ContextManagementMode } = {},
): PreparedRequest {
  const ledger = options.ledger ?? new TokenLedger();
  const limit = effectiveInputLimit(resolveContextBudget(settings));
  const first = assembleModelMessages(conversation, settings, { ledger, mode: options.mode });
  if (first.stats.tokens <= limit) return { ...first, conversation, compaction: null, failed: false };
  // Compact the assembled view: its capped reads and summarised old results are what the model
  // would have seen anyway, and they let the newest turn fit where the raw one would not.
  const compaction = compactMessagesMultiStage(first.messages, settings, { ledger, mode: options.mode });
  if (compaction.failed) return { ...first, conversation, compaction, failed: true };
  const second = assembleModelMessages(compaction.messages, settings, { ledger, mode: options.mode });
  const fits = second.stats.tokens <= limit;
  return { ...second, conversation: compaction.messages, compaction, failed: !fits };
}
