// One Gemini reply's `tokens` record as the store's token kinds, by ccusage 20's rule (its
// adapter/gemini parser, checked against ccusage 20.0.24 record by record), so per-session,
// per-day and per-model figures equal ccusage's kind by kind.
//
// Gemini writes {input, output, cached, thoughts, tool, total} from the API's usage metadata:
// input = promptTokenCount, which INCLUDES the cached prompt tokens; output = candidates only;
// thoughts and tool-use prompt tokens beside them; total = the API's totalTokenCount.
//
//   cacheRead = cached
//   input     = input − cached (only when total shows input includes cached: total equals
//               input+output+thoughts+tool and not that plus cached) + tool
//   unnamed   = whatever total holds beyond input, output, cached and thoughts (0 in the CLI's
//               own records, where total is exactly their sum)
//   output    = output; when output is 0, the unnamed tokens instead (ccusage shows them there)
//   reasoning = thoughts (+ the unnamed tokens when output is not 0)
//
// Thoughts are billed at the output rate and ccusage prices them so, counts them in its total, and
// leaves them out of its output column: the store's fifth kind, `reasoning` (TokenCounts), holds
// exactly that, so input, output, cache reads, total and cost all equal ccusage's. (Codex differs:
// its reasoning is inside its output.) The split stays on the event as attrs (thoughts,
// toolTokens, candidates, totalTokens).
//
// One record ccusage counts differently: a total SMALLER than the named fields (never written by
// the CLI). ccusage then prices the thoughts but leaves them out of its total; here the total is
// always the sum of the kinds.

import type { EventUsage } from '../../core/model.js';
import { asObj } from './json.js';

export interface ReplyUsage {
  usage: EventUsage;
  attrs: { thoughts: number; toolTokens: number; candidates: number; totalTokens: number };
}

/** A token count as ccusage reads one: a finite JSON number, floored at 0, truncated. */
function count(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return Math.trunc(Math.max(0, value));
}

/** The first field present among ccusage's accepted spellings (Gemini CLI writes the first). */
function field(record: Record<string, unknown>, keys: readonly string[]): number {
  for (const k of keys) {
    const v = count(record[k]);
    if (v !== undefined) return v;
  }
  return 0;
}

/**
 * The usage of one reply, or null when its tokens record is absent, not an object, or all zero
 * (ccusage counts no call then either).
 *
 * @example replyUsage({ input: 100, output: 5, cached: 40, thoughts: 7, tool: 0, total: 112 }, 'msg-1', 'gemini-2.5-pro')!.usage
 *   // { key: 'msg-1', model: 'gemini-2.5-pro', input: 60, output: 5, cacheRead: 40, cacheWrite: 0, reasoning: 7 }
 */
export function replyUsage(tokens: unknown, key: string, model: string | null): ReplyUsage | null {
  const t = asObj(tokens);
  if (!t) return null;
  const input = field(t, ['input', 'prompt', 'input_tokens', 'prompt_tokens']);
  const output = field(t, ['output', 'candidates', 'output_tokens', 'candidates_tokens']);
  const cached = field(t, ['cached', 'cached_tokens']);
  const thoughts = field(t, ['thoughts', 'reasoning', 'thoughts_tokens', 'reasoning_tokens']);
  const tool = field(t, ['tool', 'tool_tokens']);
  const writtenTotal = count(t.total) ?? count(t.total_tokens);

  const inclusive = input + output + thoughts + tool;
  const inputHoldsCached = cached > 0 && writtenTotal === inclusive && writtenTotal !== inclusive + cached;
  const uncachedInput = inputHoldsCached ? input - Math.min(input, cached) : input;
  const inputTokens = uncachedInput + tool;
  const total = writtenTotal ?? inputTokens + output + cached + thoughts;
  // Tokens the total holds that no field names: ccusage shows them as output when the reply has no
  // output, else counts them with the thoughts. Either way they are billed as output.
  const unnamed = Math.max(0, total - (inputTokens + output + cached + thoughts));
  const shownOutput = output > 0 ? output : unnamed;
  const reasoning = thoughts + (output > 0 ? unnamed : 0);
  if (inputTokens === 0 && shownOutput === 0 && reasoning === 0 && cached === 0) return null;
  return {
    usage: { key, model, input: inputTokens, output: shownOutput, cacheRead: cached, cacheWrite: 0, ...(reasoning > 0 ? { reasoning } : {}) },
    attrs: { thoughts, toolTokens: tool, candidates: output, totalTokens: total },
  };
}
