// Which known failure a finished turn shows, if any (seed §6). The session hands over a summary of
// the turn; this decides whether a recovery recipe applies. Checked in this order, first match wins:
//   1. aborted or handed-off turns are never retried (the user or a child session took over);
//   2. errorKind 'context_exhaustion' → context_exhaustion;
//   3. any other budget_exhausted turn (the money budget) is not retried;
//   4. the same tool with the same arguments as the last LOOP_REPEATS calls → infinite_loop;
//   5. the last bash call among the tool results failed, and no answer → bash_failure;
//   6. a completed turn whose final content is empty → empty_response.

export const RECOVERY_SCENARIOS = ['empty_response', 'bash_failure', 'context_exhaustion', 'infinite_loop'] as const;
export type RecoveryScenario = (typeof RECOVERY_SCENARIOS)[number];

/** The same call this many times in a row is a loop. */
export const LOOP_REPEATS = 3;

export interface ToolResultSummary {
  name: string;
  isError: boolean;
  /** The result text the model saw (for bash: its output and stderr). */
  content: string;
}

export interface RecentCall {
  name: string;
  arguments: unknown;
}

/** What recovery needs to know about a finished turn. */
export interface TurnOutcome {
  /** completed, error, budget_exhausted, step_limit, aborted, handoff. */
  terminalState: string;
  finalContent: string | null;
  /** The results of the turn's last model step's tool calls, in order. */
  lastToolResults?: readonly ToolResultSummary[];
  /** The turn's tool calls, oldest first (the last few are enough). */
  recentCalls?: readonly RecentCall[];
  /** Why the turn stopped when it was not completed, e.g. 'context_exhaustion'. */
  errorKind?: string;
}

const NEVER_RETRIED = new Set(['aborted', 'handoff']);

export function classifyResultForRecovery(result: TurnOutcome): RecoveryScenario | null {
  if (NEVER_RETRIED.has(result.terminalState)) return null;
  if (result.errorKind === 'context_exhaustion') return 'context_exhaustion';
  if (result.terminalState === 'budget_exhausted') return null;
  if (repeatedCall(result.recentCalls ?? []) !== null) return 'infinite_loop';
  const answered = result.terminalState === 'completed' && hasText(result.finalContent);
  if (!answered && lastFailedBash(result.lastToolResults ?? []) !== null) return 'bash_failure';
  if (result.terminalState === 'completed' && !hasText(result.finalContent)) return 'empty_response';
  return null;
}

/** The call repeated LOOP_REPEATS times at the end of `calls`, or null. */
export function repeatedCall(calls: readonly RecentCall[]): RecentCall | null {
  if (calls.length < LOOP_REPEATS) return null;
  const tail = calls.slice(-LOOP_REPEATS);
  const key = callKey(tail[0]!);
  return tail.every((c) => callKey(c) === key) ? tail[tail.length - 1]! : null;
}

/** The last bash result when it failed, or null (a bash call that failed and was then fixed does not count). */
export function lastFailedBash(results: readonly ToolResultSummary[]): ToolResultSummary | null {
  for (let i = results.length - 1; i >= 0; i--) {
    const r = results[i]!;
    if (r.name === 'bash') return r.isError ? r : null;
  }
  return null;
}

function hasText(text: string | null): boolean {
  return text !== null && text.trim() !== '';
}

/** Name plus arguments with object keys sorted, so {a,b} and {b,a} are the same call. */
function callKey(call: RecentCall): string {
  return `${call.name}\u0000${stableJson(call.arguments)}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
