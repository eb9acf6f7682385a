// startTurnWithRecovery (seed §1, §6): a turn inside the recovery loop. A recoverable ending
// (empty answer, failed bash, exhausted context, a loop) gets the recipe's nudge as the next user
// message and another turn, within each recipe's limit and 3 attempts per turn. A context still
// exhausted after that is handed off to a child session when a handoff is wired.

import type { Session } from './session.js';
import type { TurnResult } from './turn-result.js';

export interface RecoveryPort {
  resetForTurn(): void;
  /** The recipe that applies to this result, or null. */
  classify(result: TurnResult): string | null;
  /** The nudge to send, or null when the recipe's (or the turn's) limit is reached. */
  attempt(scenario: string, result: TurnResult): { message: string; attempt: number } | null;
}

export interface HandoffPort {
  /** Start a child session that carries on the task; its final result. */
  handOff(parent: Session, task: string, result: TurnResult): Promise<TurnResult>;
}

export interface RecoveryRecord {
  record(entry: { type: 'recovery'; turn: number; scenario: string; attempt: number; recovered: boolean; message: string }): void;
}

export async function startTurnWithRecovery(
  session: Session,
  task: string,
  recovery: RecoveryPort,
  options: { handoff?: HandoffPort; recorder?: RecoveryRecord | null; signal?: AbortSignal } = {},
): Promise<TurnResult> {
  recovery.resetForTurn();
  let result = await session.startTurn(task);
  for (;;) {
    if (options.signal?.aborted) return result;
    const scenario = recovery.classify(result);
    if (!scenario) break;
    const nudge = recovery.attempt(scenario, result);
    options.recorder?.record({
      type: 'recovery',
      turn: result.turn,
      scenario,
      attempt: nudge?.attempt ?? 0,
      recovered: nudge !== null,
      message: nudge?.message ?? 'no attempts left',
    });
    if (!nudge) break;
    result = await session.startTurn(nudge.message, 'recovery');
  }
  if (options.handoff && result.terminalState === 'budget_exhausted' && result.error?.kind === 'context_exhaustion') {
    return options.handoff.handOff(session, task, result);
  }
  return result;
}
