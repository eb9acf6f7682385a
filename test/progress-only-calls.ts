// The fixtures' expected.json records ccusage 20's `session` report, which drops the calls recorded
// only in `progress` lines; Hindsight counts them, as ccusage's `daily` report does (formats.md,
// "Token usage traps"). This is that one difference, for the tests that compare with expected.json.

export const PROGRESS_ONLY_CALLS = {
  /** Session 491e126e: nine progress lines holding five claude-haiku-4-5 calls of a sub-agent whose file is absent. */
  '491e126e-1e71-469c-ade2-fcc8af567c74': {
    model: 'claude-haiku-4-5-20251001',
    inputTokens: 24,
    outputTokens: 7,
    cacheCreationTokens: 14_285,
    cacheReadTokens: 95_343,
    totalTokens: 109_659,
  },
} as const;

interface CcusageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
  modelsUsed: string[];
}

/** expected.json's ccusage20 totals of a session with its progress-only calls added (what Hindsight reports). */
export function withProgressOnlyCalls<T extends CcusageTotals>(sessionId: string, c: T): T {
  const extra = (PROGRESS_ONLY_CALLS as Record<string, (typeof PROGRESS_ONLY_CALLS)[keyof typeof PROGRESS_ONLY_CALLS]>)[sessionId];
  if (!extra) return c;
  return {
    ...c,
    inputTokens: c.inputTokens + extra.inputTokens,
    outputTokens: c.outputTokens + extra.outputTokens,
    cacheCreationTokens: c.cacheCreationTokens + extra.cacheCreationTokens,
    cacheReadTokens: c.cacheReadTokens + extra.cacheReadTokens,
    totalTokens: c.totalTokens + extra.totalTokens,
    modelsUsed: c.modelsUsed.includes(extra.model) ? c.modelsUsed : [...c.modelsUsed, extra.model],
  };
}
