// One Gemini reply's `tokens` record as the store's four kinds, by ccusage 20's rule (its
// adapter/gemini parser), so per-session, per-day and per-model figures equal ccusage's.
//
// Gemini writes {input, output, cached, thoughts, tool, total} from the API's usage metadata:
// input = promptTokenCount, which INCLUDES the cached prompt tokens; output = candidates only;
// thoughts and tool-use prompt tokens beside them; total = the API's totalTokenCount.
//
//   cacheRead = cached
//   input     = input − cached (only when total shows input includes cached: total equals
//               input+output+thoughts+tool and not that plus cached) + tool
//   output    = output + thoughts (+ whatever total has that no field names)
//
// Thoughts are billed at the output rate, and ccusage prices them so; it prints them apart from
// its output column but inside its total. The store has no fifth kind, so they go into `output`
// (Codex's output already includes its reasoning the same way): cost and total then equal
// ccusage's exactly, and output = ccusage's outputTokens + its unnamed remainder (a test holds
// that). The split stays on the event as attrs (thoughts, toolTokens, candidates, totalTokens).

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
 *   // { key: 'msg-1', model: 'gemini-2.5-pro', input: 60, output: 12, cacheRead: 40, cacheWrite: 0 }
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
  // Tokens the total holds that no field names: ccusage shows them as output when there is none,
  // else prices them with the thoughts. Either way they are billed as output.
  const unnamed = Math.max(0, total - (inputTokens + output + cached + thoughts));
  const billedOutput = output + thoughts + unnamed;
  if (inputTokens === 0 && billedOutput === 0 && cached === 0) return null;
  return {
    usage: { key, model, input: inputTokens, output: billedOutput, cacheRead: cached, cacheWrite: 0 },
    attrs: { thoughts, toolTokens: tool, candidates: output, totalTokens: total },
  };
}
