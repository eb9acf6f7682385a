// Whether a session's ledgers include its descendants' files. Claude Code writes a sub-agent's
// lines into a file inside its parent's folder (`<session>/subagents/agent-<id>.jsonl`): that file
// is both the child session's transcript and the parent's `agent-<id>` ledger (decisions.md,
// "Sub-agents are both"). An Amplifier sub-agent or fork is a session folder of its own whose files
// carry the same ledger names as its parent's (transcript, events, metadata): they are the child's
// ledgers only, and merging them would put a child's lines into the parent's transcript.

import type { Format } from '../../core/model.js';

export function childFilesAreParentLedgers(format: string): boolean {
  return (format as Format) === 'claude-code';
}
