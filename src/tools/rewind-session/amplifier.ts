// Amplifier: transcript.jsonl is cut at a message line and events.jsonl at the matching point;
// metadata.json is left alone, as Amplifier's own rewind leaves it (its turn_count goes stale).
// A message is a user line (a real prompt; persisted system reminders are not) or an assistant
// line; tool lines are results and belong to the call before them.

import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { toTimeKey } from '../../core/time.js';
import type { StoredEvent } from '../../formats/importer.js';
import type { SessionRow, Store } from '../../store/store.js';
import { resolveCut, turnStarts, type LineInfo, type Target } from './cut.js';
import { RewindRefused, type FormatPlan } from './plan-types.js';
import { eventsByFile, liveFiles, type SourceFile } from './source.js';

/** Events that open the work for a message: what a removed message's own log begins with. */
const OPENERS = new Set(['prompt:submit', 'execution:start', 'provider:request', 'llm:request']);

export function amplifierLines(events: StoredEvent[]): LineInfo[] {
  const lines: LineInfo[] = [];
  for (const e of events) {
    let l = lines[lines.length - 1];
    if (!l || l.line !== e.lineNumber) {
      l = { line: e.lineNumber, tsKey: e.tsKey, message: null, turnStart: false, calls: [], results: [], events: 0 };
      lines.push(l);
    }
    l.events++;
    if (e.kind === 'tool_call' && e.ids.toolCall !== undefined) l.calls.push(e.ids.toolCall);
    if (e.kind === 'tool_result' && e.ids.toolCall !== undefined) l.results.push(e.ids.toolCall);
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
export function eventsCut(transcript: LineInfo[], cut: number, log: StoredEvent[]): number | null {
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

async function childrenAfter(store: Store, session: SessionRow, at: string | null): Promise<FormatPlan['subagents']> {
  if (at === null) return [];
  const { sessions } = await store.listSessions({ parentId: session.id, limit: 500, offset: 0 });
  const out: FormatPlan['subagents'] = [];
  for (const child of sessions) {
    const started = toTimeKey(child.startedAt);
    if (started === null || started < at) continue;
    const files = liveFiles(await store.sessionLedgers(child.id)).filter((f) => basename(dirname(f.path)) === child.id);
    out.push({ session_id: child.id, kind: child.kind, files: files.map((f) => f.relPath).sort() });
  }
  return out.sort((a, b) => (a.session_id < b.session_id ? -1 : 1));
}

export async function planAmplifier(store: Store, session: SessionRow, target: Target): Promise<FormatPlan> {
  const files = liveFiles(await store.sessionLedgers(session.id));
  const byFile = await eventsByFile(store, session.id, false);
  const own = (ledger: string): SourceFile | undefined => files.find((f) => f.ledger === ledger && byFile.has(f.fileId));
  const transcript = own('transcript');
  if (!transcript) {
    throw RewindRefused(`${session.id} has no transcript.jsonl in the store: Amplifier resumes from the transcript, so there is nothing to rewind.`);
  }
  const lines = amplifierLines(byFile.get(transcript.fileId)!);
  const cut = resolveCut(lines, transcript.lines, target);
  const changes: FormatPlan['changes'] = [{ file: transcript, cutLine: cut.line }];
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
    subagents: await childrenAfter(store, session, removedAt),
    metadata,
    warnings,
  };
}
