// Amplifier: transcript.jsonl is cut at a message line and events.jsonl at the matching point;
// metadata.json is left alone, as Amplifier's own rewind leaves it (its turn_count goes stale).
// A message is a user line (a real prompt; persisted system reminders are not) or an assistant
// line; tool lines are results and belong to the call before them.

import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { toTimeKey } from '../../core/time.js';
import type { StoredEvent } from '../../core/events.js';
import { addRewindEvent, resolveCut, turnStarts } from '../shared/rewind-cut.js';
import { RewindRefused } from '../shared/rewind-errors.js';
import type { RewindFile, RewindFormatPlan, RewindHooks, RewindInput, RewindLine, RewindTarget } from '../profile.js';

/** Events that open the work for a message: what a removed message's own log begins with. */
const OPENERS = new Set(['prompt:submit', 'execution:start', 'provider:request', 'llm:request']);

export function amplifierLines(events: StoredEvent[]): RewindLine[] {
  const lines: RewindLine[] = [];
  for (const e of events) {
    const l = addRewindEvent(lines, e);
    if (e.type === 'user' && e.kind === 'user_message') {
      l.message = `L${e.lineNumber}`;
      l.turnStart = true;
    } else if (e.type === 'assistant') l.message = `L${e.lineNumber}`;
  }
  return lines;
}

/**
 * Where events.jsonl is cut for a transcript cut at `cut`. Its lines are in time order. The
 * removed message's log starts a little before the message is saved (prompt:submit precedes the
 * user line; provider and llm events precede the assistant line), and the kept turn's closing
 * events (orchestrator:complete, prompt:complete) follow the last kept line. So: the first opener
 * after the last kept message, or the first event at/after the removed message, whichever is first.
 */
export function eventsCut(transcript: RewindLine[], cut: number, log: StoredEvent[]): number | null {
  const lastKept = [...transcript].reverse().find((l) => l.line < cut && l.tsKey !== null)?.tsKey ?? null;
  const removedAt = transcript.find((l) => l.line >= cut)?.tsKey ?? null;
  for (const e of log) {
    if (e.tsKey === null) continue;
    if (removedAt !== null && e.tsKey >= removedAt) return e.lineNumber;
    if (lastKept !== null && e.tsKey > lastKept && OPENERS.has(e.type)) return e.lineNumber;
  }
  return null;
}

function readTurnCount(path: string): number | null {
  try {
    const doc = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    return typeof doc.turn_count === 'number' ? doc.turn_count : null;
  } catch {
    return null;
  }
}

function childrenAfter(children: RewindInput['children'], at: string | null): RewindFormatPlan['subagents'] {
  if (at === null) return [];
  const out: RewindFormatPlan['subagents'] = [];
  for (const { session: child, files: childFiles } of children) {
    const started = toTimeKey(child.startedAt);
    if (started === null || started < at) continue;
    const files = childFiles.filter((f) => basename(dirname(f.path)) === child.id);
    out.push({ session_id: child.id, kind: child.kind, files: files.map((f) => f.relPath).sort() });
  }
  return out.sort((a, b) => (a.session_id < b.session_id ? -1 : 1));
}

export async function planAmplifier(input: RewindInput, target: RewindTarget): Promise<RewindFormatPlan> {
  const { session, files, eventsByFile: byFile } = input;
  const own = (ledger: string): RewindFile | undefined => files.find((f) => f.ledger === ledger && byFile.has(f.fileId));
  const transcript = own('transcript');
  if (!transcript) {
    throw RewindRefused(`${session.id} has no transcript.jsonl in the store: Amplifier resumes from the transcript, so there is nothing to rewind.`);
  }
  const lines = amplifierLines(byFile.get(transcript.fileId)!);
  const cut = resolveCut(lines, transcript.lines, target);
  const changes: RewindFormatPlan['changes'] = [{ file: transcript, cutLine: cut.line }];
  let removedEvents = byFile.get(transcript.fileId)!.filter((e) => e.lineNumber >= cut.line).length;

  const log = own('events');
  if (log && cut.line <= transcript.lines) {
    const events = byFile.get(log.fileId)!;
    const at = eventsCut(lines, cut.line, events) ?? log.lines + 1;
    changes.push({ file: log, cutLine: at });
    removedEvents += events.filter((e) => e.lineNumber >= at).length;
  }

  const turnsAfter = turnStarts(lines).filter((l) => l < cut.line).length;
  const meta = files.find((f) => f.ledger === 'metadata' && dirname(f.path) === dirname(transcript.path));
  const recorded = meta ? readTurnCount(meta.path) : null;
  const metadata = meta ? { file: meta.relPath, turn_count: recorded, stale: recorded !== turnsAfter } : null;
  const warnings =
    metadata?.stale && cut.line <= transcript.lines
      ? [`metadata.json is left alone (as Amplifier's own rewind leaves it): its turn_count ${recorded ?? '(none)'} will not match the ${turnsAfter} turn(s) left.`]
      : [];
  const removedAt = lines.find((l) => l.line >= cut.line)?.tsKey ?? null;
  return {
    transcript,
    lines,
    cut,
    changes,
    removedEvents,
    removedToolCalls: byFile.get(transcript.fileId)!.filter((e) => e.lineNumber >= cut.line && e.kind === 'tool_call').length,
    subagents: childrenAfter(input.children, removedAt),
    metadata,
    warnings,
  };
}

/** The session folder holds the transcript, so the rewind ledger goes beside it. */
export const amplifierRewind: RewindHooks = {
  // Sub-agents and forks are folders of their own: the session's files hold its own lines only.
  withDescendants: false,
  plan: planAmplifier,
  sessionFolder: (_session, transcriptPath) => dirname(transcriptPath),
};
