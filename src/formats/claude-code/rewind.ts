// Claude Code: the session file is cut at one line; its lines are the file's lines. A message is a
// user line carrying text (a prompt or Claude Code's own wrapper text) or one assistant API
// response (consecutive assistant lines sharing message.id); tool results belong to their call.
// Sub-agent files are never touched: those whose Task call is cut away are reported.

import { dirname, join } from 'node:path';
import type { StoredEvent } from '../../core/events.js';
import { addRewindEvent, resolveCut } from '../shared/rewind-cut.js';
import { RewindRefused } from '../shared/rewind-errors.js';
import type { RewindFormatPlan, RewindHooks, RewindInput, RewindLine, RewindTarget } from '../profile.js';

/** The cut rules' view of a session file; every session's lines count for pairing, only the own session's for messages and turns. */
export function claudeLines(events: StoredEvent[], sessionId: string): RewindLine[] {
  const lines: RewindLine[] = [];
  let lastAssistant: { key: string; id: string | undefined } | null = null;
  for (const e of events) {
    const l = addRewindEvent(lines, e);
    if (e.sessionId !== sessionId) continue;
    if (e.attrs.turnStart === true) l.turnStart = true;
    if (e.type === 'user' && e.kind === 'user_message') {
      l.message = `L${e.lineNumber}`;
      lastAssistant = null;
    } else if (e.type === 'assistant' && l.message === null) {
      const id = e.ids.message;
      // One response is written as one line per content block: same message.id, one message.
      if (lastAssistant && id !== undefined && lastAssistant.id === id) l.message = lastAssistant.key;
      else {
        l.message = `L${e.lineNumber}`;
        lastAssistant = { key: l.message, id };
      }
    }
  }
  return lines;
}

export async function planClaudeCode(input: RewindInput, target: RewindTarget): Promise<RewindFormatPlan> {
  const { session, files, eventsByFile: byFile } = input;
  if (session.parentId !== null) {
    throw RewindRefused(
      `${session.id} is a sub-agent of ${session.parentId}: its Task result lives in the parent's file, so rewind the parent session instead.`,
    );
  }
  const transcript = files.find((f) => f.ledger === 'transcript' && byFile.has(f.fileId));
  if (!transcript) throw RewindRefused(`${session.id} has no session file with events in the store to rewind.`);
  const events = byFile.get(transcript.fileId)!;
  const lines = claudeLines(events, session.id);
  const cut = resolveCut(lines, transcript.lines, target);

  const removed = events.filter((e) => e.lineNumber >= cut.line);
  const children = [...new Set(removed.map((e) => e.attrs.childSessionId).filter((c): c is string => typeof c === 'string'))].sort();
  const subagents = children
    .filter((id) => id.startsWith(`${session.id}:`))
    .map((id) => {
      const agentId = id.slice(session.id.length + 1);
      return { session_id: id, kind: 'subagent', files: files.filter((f) => f.ledger === `agent-${agentId}`).map((f) => f.relPath) };
    });
  return {
    transcript,
    lines,
    cut,
    changes: [{ file: transcript, cutLine: cut.line }],
    removedEvents: removed.length,
    removedToolCalls: removed.filter((e) => e.kind === 'tool_call').length,
    subagents,
    metadata: null,
    warnings: [],
  };
}

/** The session's own folder (`<slug>/<id>/`, beside the transcript, where its sub-agents live): the rewind ledger goes there. */
export const claudeRewind: RewindHooks = {
  // Inline sidechains are child sessions whose lines sit in the parent's transcript.
  withDescendants: true,
  plan: planClaudeCode,
  sessionFolder: (session, transcriptPath) => join(dirname(transcriptPath), session.id),
};
