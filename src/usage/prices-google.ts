// Google's rows of the shipped price table (src/usage/pricing.ts explains the table and its sources).
//
// Each row is priced as ccusage 20.0.24 prices that model name, so Gemini CLI reports agree with
// it (issue 13): ccusage looks a Gemini name up in its embedded LiteLLM snapshot under the
// google/, gemini/, vertex_ai/ and openrouter/google/ prefixes and then bare, taking the first
// candidate its (fuzzy) lookup resolves. Every rate below was read off ccusage 20.0.24 itself
// (`ccusage gemini session --json --offline`, one call per model and token kind, below and above
// 200k prompt tokens); where Google's price page (https://ai.google.dev/gemini-api/docs/pricing)
// lists the model, its rates are the same. Two consequences worth knowing:
// - ccusage resolves the bare `gemini-3-pro` (and `gemini-3-pro-image-preview`) to a row priced
//   at 1.6 / 9.6 / 0.16 with no long-context tier, and the bare `gemini-3-flash` and
//   `gemini-3.1-pro` to rows apart from their -preview names; they are kept apart here too.
// - Above 200k prompt tokens (input + cached), Gemini 2.5 Pro and the 3.x Pro previews bill the
//   whole call at the long-context rates, as ccusage 20.0.24 does and Google's price page says.
// Gemini reports no cache writes (implicit caching bills storage per hour, outside a call), so
// the cache-write rates are the input rate and never used.

import { LONG_CONTEXT_THRESHOLD, type ModelPrice } from './price-types.js';

/** A Google row: cache writes priced as input (never reported by Gemini). */
function google(model: string, input: number, output: number, cacheRead: number, extra: Partial<ModelPrice> = {}): ModelPrice {
  return { model, provider: 'google', input, output, cacheWrite5m: input, cacheWrite1h: input, cacheRead, ...extra };
}

function longContext(input: number, output: number, cacheRead: number): ModelPrice['longContext'] {
  return { threshold: LONG_CONTEXT_THRESHOLD, input, output, cacheWrite5m: input, cacheWrite1h: input, cacheRead };
}

export const GOOGLE_PRICES: readonly ModelPrice[] = [
  // Gemini 3 Pro / 3.1 Pro preview: $2 / $12, cached $0.20; above 200k $4 / $18 / $0.40.
  google('gemini-3.1-pro-preview', 2, 12, 0.2, { aliases: ['gemini-3-pro-preview'], longContext: longContext(4, 18, 0.4) }),
  // What ccusage resolves the bare name to: the same base rates without the long-context tier.
  google('gemini-3.1-pro', 2, 12, 0.2),
  // What ccusage resolves the bare `gemini-3-pro` and `gemini-3-pro-image-preview` to.
  google('gemini-3-pro', 1.6, 9.6, 0.16, { aliases: ['gemini-3-pro-image-preview'] }),
  // Gemini 3 Flash preview: $0.50 / $3, cached $0.05.
  google('gemini-3-flash-preview', 0.5, 3, 0.05),
  // What ccusage resolves the bare `gemini-3-flash` to.
  google('gemini-3-flash', 0.4, 2.4, 0.04),
  // Gemini 3.1 Flash-Lite preview: $0.25 / $1.50, cached $0.025.
  google('gemini-3.1-flash-lite-preview', 0.25, 1.5, 0.025),
  // Gemini 2.5 Pro: $1.25 / $10, cached $0.125; above 200k $2.50 / $15 / $0.25.
  google('gemini-2.5-pro', 1.25, 10, 0.125, { aliases: ['gemini-2.5-pro-preview-06-05'], longContext: longContext(2.5, 15, 0.25) }),
  // Gemini 2.5 Flash: $0.30 / $2.50, cached $0.03 (the image model and the 09-2025 preview resolve to the same).
  google('gemini-2.5-flash', 0.3, 2.5, 0.03, { aliases: ['gemini-2.5-flash-image', 'gemini-2.5-flash-preview-09-2025'] }),
  // Gemini 2.5 Flash-Lite: $0.10 / $0.40, cached $0.01.
  google('gemini-2.5-flash-lite', 0.1, 0.4, 0.01),
];
