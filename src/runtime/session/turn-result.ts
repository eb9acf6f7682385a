// What one turn of the loop produced. The recovery manager classifies it; the CLI prints it; the
// recorder stores its terminal state as the turn_end line.

import type { TerminalState } from '../../formats/hindsight/records.js';
import type { ProviderUsage } from '../model/chat.js';

export type { TerminalState };

/** Why a turn stopped early, for the recovery recipes and the error message. */
export type TurnErrorKind = 'provider' | 'context_exhaustion' | 'budget_usd' | 'aborted' | 'internal';

export interface ToolOutcomeSummary {
  callId: string;
  name: string;
  arguments: Record<string, unknown> | string;
  isError: boolean;
  content: string;
}

export interface TurnResult {
  sessionId: string;
  turn: number;
  terminalState: TerminalState;
  /** The final answer; for a structured-output exchange, the JSON text of the result. */
  finalContent: string | null;
  /** The structured output, parsed (output_json interception), when there was one. */
  structuredOutput?: unknown;
  steps: number;
  toolCalls: number;
  /** The tool outcomes of this turn, in order (recovery reads the last ones). */
  toolOutcomes: ToolOutcomeSummary[];
  usage: ProviderUsage;
  costUsd: number | null;
  error?: { kind: TurnErrorKind; message: string };
  /** Set when the turn ended in a handoff: the child session that took over. */
  handoffSessionId?: string;
}
