// Token usage of one `llm:response`, split into four kinds that never overlap.
//
// Amplifier's normalised `data.usage.input_tokens` is the raw input PLUS cache reads (the real
// c37652eb sample: input_tokens 67192 = raw 2 + cache_read 67190; cache writes are not in it).
// Our `input` is therefore input_tokens − cache_read_tokens, so input + cacheRead + cacheWrite +
// output is the whole bill with nothing counted twice. The writer's own figure stays available
// as attrs.rawInputTokens: Σ rawInputTokens = Σ (input + cacheRead).

import type { EventUsage } from '../../core/model.js';
import { asNumber, asRecord, asString } from './text.js';

export interface ResponseUsage {
  usage: EventUsage;
  /** data.usage.input_tokens exactly as written (raw input plus cache reads). */
  rawInputTokens: number;
  costUsd?: number;
}

const n = (v: unknown): number => {
  const x = asNumber(v);
  return x !== undefined && x > 0 ? x : 0;
};

/**
 * Read usage from `data.usage` (Amplifier's normalised form); fall back to the provider's own
 * `data.raw.usage` (Anthropic: input_tokens excludes cache reads) when the hook did not normalise.
 */
export function readUsage(data: Record<string, unknown>, key: string): ResponseUsage | null {
  const raw = asRecord(data.raw);
  const model = asString(data.model) ?? asString(raw?.model) ?? null;
  const norm = asRecord(data.usage);
  if (norm) {
    const rawInput = n(norm.input_tokens);
    const cacheRead = n(norm.cache_read_tokens);
    return {
      usage: {
        key,
        model,
        input: Math.max(0, rawInput - cacheRead),
        output: n(norm.output_tokens),
        cacheWrite: n(norm.cache_write_tokens),
        cacheRead,
      },
      rawInputTokens: rawInput,
      costUsd: asNumber(norm.cost_usd),
    };
  }
  const provider = asRecord(raw?.usage);
  if (provider) {
    const input = n(provider.input_tokens);
    const cacheRead = n(provider.cache_read_input_tokens);
    return {
      usage: {
        key,
        model,
        input,
        output: n(provider.output_tokens),
        cacheWrite: n(provider.cache_creation_input_tokens),
        cacheRead,
      },
      rawInputTokens: input + cacheRead,
    };
  }
  return null;
}
