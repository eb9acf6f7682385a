// Message assembly (seed §7): the messages actually sent on each model call, built from the
// conversation without changing it. Three rules, in this order:
//   1. the tool-call protocol is repaired when a crash or an abort broke it (protocol.ts);
//   2. once the conversation passes assemblyCompactionThreshold of the input limit, the results of
//      tool turns older than the last keepRecentToolTurns become one-line structured summaries;
//   3. a file read's result is cut to maxSingleReadResultTokens, and within one user turn the read
//      results together keep to maxTotalReadResultTokensPerTurn: the newest stay, older ones are
//      summarised.
// Rewritten messages are remembered per original message, so a call repeats no work for the
// messages it saw before and sends byte-identical text (prompt caches keep hitting).

import { capText, groupDigits } from '../../analysis/text-cap.js';
import { clipWords, oneLine } from '../../analysis/words.js';
import type { ChatMessage, ToolCallRequest } from '../model/chat.js';
import {
  effectiveInputLimit,
  isContextManagementOff,
  LIGHT_ASSEMBLY_THRESHOLD,
  resolveContextBudget,
  TokenLedger,
  type ContextBudgetSettings,
  type ContextManagementMode,
} from './budget.js';
import { estimateTokens } from '../metrics/estimate.js';
import { repairToolPairing } from './protocol.js';
import { isFileReadTool, keyFacts, pathsOf } from './tool-facts.js';

type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

export interface AssemblyStats {
  /** Tokens of the assembled messages. */
  tokens: number;
  /** Tokens of the conversation as given. */
  tokensIn: number;
  /** Tool results replaced by a one-line summary. */
  compactedResults: number;
  /** File-read results cut to maxSingleReadResultTokens. */
  cappedResults: number;
  /** Files whose text left the model's view (a read result summarised or cut), sorted. */
  compactedPaths: string[];
  /** Whether the conversation passed the assembly threshold (old results were summarised). */
  nearBudget: boolean;
  /** Whether the tool-call protocol had to be repaired. */
  repaired: boolean;
}

export interface AssemblyResult {
  messages: readonly ChatMessage[];
  stats: AssemblyStats;
}

export interface AssemblyOptions {
  ledger?: TokenLedger;
  mode?: ContextManagementMode;
}

/** What a tool result becomes, decided before anything is built. */
type Action = { kind: 'keep' } | { kind: 'compact' } | { kind: 'cap' };

const ERROR_CHARS = 120;

/**
 * The messages to send for one model call, and what was done to them.
 *
 * @example
 * const { messages, stats } = assembleModelMessages(conversation, budget, { ledger });
 * await client.chat({ messages, tools });
 */
export function assembleModelMessages(
  messages: readonly ChatMessage[],
  settings: Partial<ContextBudgetSettings> = {},
  options: AssemblyOptions | TokenLedger = {},
): AssemblyResult {
  const opts = options instanceof TokenLedger ? { ledger: options } : options;
  const ledger = opts.ledger ?? new TokenLedger();
  const mode = opts.mode ?? 'normal';
  const budget = resolveContextBudget(settings);
  if (isContextManagementOff(mode)) {
    const tokens = ledger.total(messages);
    return { messages, stats: { tokens, tokensIn: tokens, compactedResults: 0, cappedResults: 0, compactedPaths: [], nearBudget: false, repaired: false } };
  }

  const repairedMessages = repairToolPairing(messages);
  const repaired = repairedMessages !== messages;
  const tokensIn = ledger.total(messages);
  const threshold = mode === 'light' ? Math.max(LIGHT_ASSEMBLY_THRESHOLD, budget.assemblyCompactionThreshold) : budget.assemblyCompactionThreshold;
  const working = repaired ? ledger.total(repairedMessages) : tokensIn;
  const nearBudget = working > effectiveInputLimit(budget) * threshold;

  // One pass: which tool turn each result belongs to, its call, and the user turn it is in.
  let toolTurns = 0;
  for (const m of repairedMessages) if (m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0) toolTurns++;
  const recentFrom = toolTurns - budget.keepRecentToolTurns;
  const actions = new Map<number, Action>();
  const calls = new Map<number, ToolCallRequest>();
  const readsByTurn: number[][] = [[]];
  let ordinal = -1;
  let open = new Map<string, ToolCallRequest>();
  for (let i = 0; i < repairedMessages.length; i++) {
    const m = repairedMessages[i]!;
    if (m.role === 'user') readsByTurn.push([]);
    if (m.role === 'assistant' && m.toolCalls && m.toolCalls.length > 0) {
      ordinal++;
      open = new Map(m.toolCalls.map((c) => [c.id, c]));
      continue;
    }
    if (m.role !== 'tool') continue;
    const call = open.get(m.toolCallId);
    if (call) calls.set(i, call);
    if (nearBudget && ordinal < recentFrom) {
      actions.set(i, { kind: 'compact' });
      continue;
    }
    if (isFileReadTool(m.name)) {
      readsByTurn[readsByTurn.length - 1]!.push(i);
      actions.set(i, ledger.tokensOf(m) > budget.maxSingleReadResultTokens ? { kind: 'cap' } : { kind: 'keep' });
    }
  }
  // The per-turn read budget: newest reads first; once it is spent, older reads are summarised.
  for (const reads of readsByTurn) {
    let spent = 0;
    for (let r = reads.length - 1; r >= 0; r--) {
      const i = reads[r]!;
      const m = repairedMessages[i] as ToolMessage;
      const tokens = Math.min(ledger.tokensOf(m), budget.maxSingleReadResultTokens);
      if (spent + tokens > budget.maxTotalReadResultTokensPerTurn) actions.set(i, { kind: 'compact' });
      else spent += tokens;
    }
  }

  let out: ChatMessage[] | null = null;
  let compactedResults = 0;
  let cappedResults = 0;
  const paths = new Set<string>();
  for (const [i, action] of actions) {
    if (action.kind === 'keep') continue;
    const m = repairedMessages[i] as ToolMessage;
    const call = calls.get(i);
    const replaced = action.kind === 'compact' ? compactedResult(m, call) : cappedReadResult(m, budget.maxSingleReadResultTokens);
    if (replaced === m) continue;
    out ??= repairedMessages.slice();
    out[i] = replaced;
    if (action.kind === 'compact') compactedResults++;
    else cappedResults++;
    if (call && isFileReadTool(m.name)) for (const p of pathsOf(call)) paths.add(p);
  }
  const result = out ?? repairedMessages;
  return {
    messages: result,
    stats: {
      tokens: out || repaired ? ledger.total(result) : tokensIn,
      tokensIn,
      compactedResults,
      cappedResults,
      compactedPaths: [...paths].sort(),
      nearBudget,
      repaired,
    },
  };
}

const compactedCache = new WeakMap<ChatMessage, ChatMessage>();
const cappedCache = new WeakMap<ChatMessage, { max: number; message: ChatMessage }>();

/** A result as one line of JSON: tool, key arguments, size, ok or the error's first line. */
export function compactedResultText(m: ToolMessage, call: ToolCallRequest | undefined): string {
  let lines = m.content === '' ? 0 : 1;
  for (let at = m.content.indexOf('\n'); at >= 0; at = m.content.indexOf('\n', at + 1)) lines++;
  const summary: Record<string, unknown> = { compacted: true, tool: m.name };
  if (call) summary.args = keyFacts(call);
  summary.chars = m.content.length;
  summary.lines = lines;
  if (m.isError) summary.error = clipWords(oneLine(m.content.slice(0, ERROR_CHARS * 4)), ERROR_CHARS);
  else summary.status = 'ok';
  summary.note = 'old result left out to save context; call the tool again to see it';
  return JSON.stringify(summary);
}

function compactedResult(m: ToolMessage, call: ToolCallRequest | undefined): ChatMessage {
  const cached = compactedCache.get(m);
  if (cached) return cached;
  const text = compactedResultText(m, call);
  // A result shorter than its summary stays as it is.
  const out: ChatMessage = text.length < m.content.length ? { ...m, content: text } : m;
  compactedCache.set(m, out);
  return out;
}

/** `text` cut to at most `maxTokens` (estimated), with the cut marked and a hint to read less. */
export function capToTokens(text: string, maxTokens: number): string {
  const tokens = estimateTokens(text);
  if (tokens <= maxTokens) return text;
  const hint = `\n[read result cut to about ${groupDigits(maxTokens)} tokens: read a narrower range to see the rest]`;
  let chars = Math.max(0, Math.floor((text.length * maxTokens) / tokens) - hint.length - 32);
  for (;;) {
    const out = capText(text, chars).text + hint;
    if (estimateTokens(out) <= maxTokens || chars === 0) return out;
    chars = Math.floor(chars * 0.9);
  }
}

function cappedReadResult(m: ToolMessage, max: number): ChatMessage {
  const cached = cappedCache.get(m);
  if (cached && cached.max === max) return cached.message;
  const content = capToTokens(m.content, max);
  const out: ChatMessage = content === m.content ? m : { ...m, content };
  cappedCache.set(m, { max, message: out });
  return out;
}
