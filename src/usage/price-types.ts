// The shape of a price-table row, apart from the table so that each provider's rows live in a file of their own.

/** USD per million tokens (the unit the providers publish, so each row can be checked by eye). */
export interface Rates {
  input: number;
  output: number;
  /** Cache write with the 5-minute lifetime (the default). Missing → 1.25 × input (ccusage's rule). */
  cacheWrite5m?: number;
  /** Cache write with the 1-hour lifetime. Missing → 2 × input (Anthropic's documented multiplier). */
  cacheWrite1h?: number;
  /** Cache hit. Missing → 0.1 × input (ccusage's rule). */
  cacheRead?: number;
}

export interface ModelPrice extends Rates {
  /** Canonical id (provider prefix and date suffix removed). */
  model: string;
  provider: 'anthropic' | 'openai' | 'google';
  /** Other spellings of the same model, already normalised. */
  aliases?: string[];
  /**
   * Rates for a request whose prompt (input + cache writes + cache reads) exceeds
   * `threshold` tokens: every token of that request, output included, is billed at these rates.
   */
  longContext?: Rates & { threshold: number };
}

/**
 * The prompt size above which every long-context price starts. One value: the SQLite usage read
 * groups calls by it (src/usage/calls.ts), and a test holds every table entry to it.
 */
export const LONG_CONTEXT_THRESHOLD = 200_000;
