// Session status from the data only (decisions.md), read from the end of the session.
//
// Walk back to the last event that says where the conversation stands, skipping bookkeeping
// (progress, hooks, snapshots, system notices) and the text Claude Code adds around local
// commands (caveats, their output, reminders, meta lines, a local `/model`):
//   - an interruption marker                                   → interrupted
//   - a tool call that never got a result                      → interrupted
//   - an assistant API error                                   → errored
//   - assistant text whose message ended the turn              → completed
//   - anything else (a prompt, a tool result, thinking)        → active (waiting or still running)
// "Ended the turn": stop_reason end_turn / stop_sequence, or — because Claude Code writes
// stop_reason null on the lines it splits one response into — null with text as the last block
// and no tool call of that message left unanswered. Nothing follows it, so no prompt is pending.

import type { SessionStatus } from '../../core/model.js';
import type { StoredEvent } from '../importer.js';

const QUIET_WRAPPERS = new Set(['caveat', 'local-command-output', 'system-reminder', 'meta', 'bash-input', 'bash-output', 'empty']);
const DECISIVE_KINDS = new Set(['user_message', 'assistant_message', 'thinking', 'tool_call', 'tool_result', 'error']);

function isDecisive(e: StoredEvent): boolean {
  if (!DECISIVE_KINDS.has(e.kind)) return false;
  if (e.kind === 'error') return e.attrs.apiError === true;
  if (e.kind === 'user_message') {
    const wrapper = e.attrs.wrapper;
    if (typeof wrapper === 'string' && QUIET_WRAPPERS.has(wrapper)) return false;
    // A command that starts no turn is a local one (/model): it does not wait for an answer.
    if (wrapper === 'command' && e.attrs.turnStart !== true) return false;
  }
  return true;
}

/**
 * @param answered tool-call ids that have a result in this session
 */
export function sessionStatus(events: StoredEvent[], answered: Set<string>): SessionStatus {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (!isDecisive(e)) continue;
    switch (e.kind) {
      case 'user_message':
        return e.attrs.wrapper === 'interrupt' ? 'interrupted' : 'active';
      case 'tool_call':
        return e.ids.toolCall !== undefined && answered.has(e.ids.toolCall) ? 'active' : 'interrupted';
      case 'error':
        return 'errored';
      case 'assistant_message':
        return endedTurn(events, i, answered) ? 'completed' : 'active';
      default:
        return 'active';
    }
  }
  return 'active';
}

function endedTurn(events: StoredEvent[], index: number, answered: Set<string>): boolean {
  const last = events[index]!;
  const stop = last.attrs.stopReason;
  if (stop !== undefined && stop !== null && stop !== 'end_turn' && stop !== 'stop_sequence') return false;
  const message = last.ids.message;
  if (message === undefined) return true;
  for (const e of events) {
    if (e.kind === 'tool_call' && e.ids.message === message && e.ids.toolCall !== undefined && !answered.has(e.ids.toolCall)) {
      return false;
    }
  }
  return true;
}
