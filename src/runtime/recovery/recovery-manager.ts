// The recovery recipes (seed §6): for each known failure, the message injected as a user turn
// before the turn is retried, and how often that may happen. Recovery is bounded twice: per
// scenario, and across all scenarios within one turn.

import { lastFailedBash, repeatedCall, type RecoveryScenario, type TurnOutcome } from './classify.js';

export const RECOVERY_LIMITS: Readonly<Record<RecoveryScenario, number>> = {
  empty_response: 2,
  bash_failure: 2,
  context_exhaustion: 1,
  infinite_loop: 1,
};

export const MAX_RECOVERY_ATTEMPTS_PER_TURN = 3;

/** How much of a failed command's output the nudge quotes (its end, where errors are). */
export const MAX_STDERR_CHARS = 2000;

export interface RecoveryRequest {
  scenario: RecoveryScenario;
  /** The failed turn; the bash output and the looping call are taken from it. */
  result?: TurnOutcome;
  /** The failed command's error output, when the caller has it apart from the result. */
  stderr?: string;
}

export interface RecoveryAction {
  recovered: true;
  scenario: RecoveryScenario;
  /** The nudge to add to the conversation as a user message before retrying. */
  message: string;
  /** 1-based attempt of this scenario within the turn. */
  attempt: number;
  /** Attempts of any scenario within the turn, this one included. */
  totalAttempts: number;
}

export interface RecoveryManagerOptions {
  limits?: Partial<Record<RecoveryScenario, number>>;
  maxPerTurn?: number;
}

export class RecoveryManager {
  private readonly limits: Record<RecoveryScenario, number>;
  private readonly maxPerTurn: number;
  private readonly used = new Map<RecoveryScenario, number>();
  private total = 0;

  constructor(options: RecoveryManagerOptions = {}) {
    this.limits = { ...RECOVERY_LIMITS, ...options.limits };
    this.maxPerTurn = options.maxPerTurn ?? MAX_RECOVERY_ATTEMPTS_PER_TURN;
  }

  /** Start counting afresh: called when a new user turn begins. */
  resetForTurn(): void {
    this.used.clear();
    this.total = 0;
  }

  attemptsUsed(scenario?: RecoveryScenario): number {
    return scenario === undefined ? this.total : (this.used.get(scenario) ?? 0);
  }

  /** The nudge for `scenario`, counted; null when its limit or the per-turn limit is reached. */
  attemptRecovery(request: RecoveryRequest): RecoveryAction | null {
    const { scenario } = request;
    const used = this.used.get(scenario) ?? 0;
    if (used >= this.limits[scenario] || this.total >= this.maxPerTurn) return null;
    this.used.set(scenario, used + 1);
    this.total++;
    return { recovered: true, scenario, message: nudgeFor(request), attempt: used + 1, totalAttempts: this.total };
  }
}

function nudgeFor(request: RecoveryRequest): string {
  switch (request.scenario) {
    case 'empty_response':
      return 'Your last response was empty. Please continue with the task: call a tool if you need one, or give your final answer.';
    case 'bash_failure': {
      const stderr = request.stderr ?? lastFailedBash(request.result?.lastToolResults ?? [])?.content ?? '';
      return `The last bash command failed with error:\n${boundTail(stderr.trim(), MAX_STDERR_CHARS) || '(no error output)'}\nFix the cause and try again, or take another approach.`;
    }
    case 'context_exhaustion':
      return '⚠️ Context budget is running low. Save what matters with save_memory, then finish the task in as few steps as possible and give your final answer.';
    case 'infinite_loop': {
      const call = repeatedCall(request.result?.recentCalls ?? []);
      const what = call ? `the ${call.name} call with the same arguments` : 'the same tool call';
      return `You appear stuck repeating ${what}. Its result will not change: try a different approach, or give your final answer with what you know.`;
    }
  }
}

/** The last `max` characters of `text`, marked when cut. */
function boundTail(text: string, max: number): string {
  if (text.length <= max) return text;
  return `[… ${text.length - max} earlier characters cut]\n${text.slice(text.length - max)}`;
}
