// What a rewind would remove: the resolved cut, each file's lines and bytes before and after, and
// what goes with them. The dry run returns this; apply carries it out.

import { SessionNotFound } from '../../core/errors.js';
import { keyToIso } from '../../core/time.js';
import type { SessionRow, Store } from '../../store/store.js';
import { keptOrphans, messagesOf, turnStarts } from '../../formats/shared/rewind-cut.js';
import { RewindRefused } from '../../formats/shared/rewind-errors.js';
import { eventsByFile, lineOffset, liveFiles } from '../../analysis/rewind-source.js';
import type { RewindFile, RewindFormatPlan, RewindHooks, RewindInput, RewindTarget } from '../../formats/profile.js';
import { profileOf } from '../../formats/registry.js';

export interface PlannedFile {
  file: RewindFile;
  cutLine: number;
  bytesAfter: number;
}

export interface RewindPlan {
  session: SessionRow;
  /** The format's rewind hooks (apply asks them where the rewind ledger goes). */
  rewind: RewindHooks;
  /** Files that change (the cut falls before their end). */
  changes: PlannedFile[];
  /** The result body of a dry run. */
  body: {
    session_id: string;
    format: string;
    target: {
      kind: RewindTarget['kind'];
      requested: number | string;
      ledger: string;
      file: string;
      line_number: number;
      timestamp: string | null;
      adjusted: boolean;
      moved_before_tool_calls: string[];
    };
    files: { ledger: string; file: string; path: string; lines_before: number; lines_after: number; bytes_before: number; bytes_after: number }[];
    removed: { messages: number; events: number; tool_calls: number };
    nothing_to_remove: boolean;
    turn_count_before: number;
    turn_count_after: number;
    message_count_before: number;
    message_count_after: number;
    subagents_left_in_place: RewindFormatPlan['subagents'];
    metadata: RewindFormatPlan['metadata'];
    warnings: string[];
  };
}

/** Children read for the planner (the most a session has in practice; Amplifier lists forks and sub-agents here). */
const MAX_CHILDREN = 500;

/** What the format's planner needs from the store: live files, events by file, and the direct children with theirs. */
async function rewindInput(store: Store, session: SessionRow, rewind: RewindHooks): Promise<RewindInput> {
  const files = liveFiles(await store.sessionLedgers(session.id));
  const byFile = await eventsByFile(store, session.id, rewind.withDescendants);
  const { sessions } = await store.listSessions({ parentId: session.id, limit: MAX_CHILDREN, offset: 0 });
  const children = await Promise.all(sessions.map(async (child) => ({ session: child, files: liveFiles(await store.sessionLedgers(child.id)) })));
  return { session, files, eventsByFile: byFile, children };
}

const requestedOf = (t: RewindTarget): number | string => (t.kind === 'time' ? t.at : t.n);

export async function planRewind(store: Store, sessionId: string, target: RewindTarget): Promise<RewindPlan> {
  const session = await store.getSession(sessionId);
  if (!session) throw SessionNotFound(sessionId);
  const profile = await profileOf(session.format);
  const rewind = profile.rewind;
  if (!rewind) throw RewindRefused(`${sessionId} is a ${profile.label} session. ${profile.rewindRefusal} Nothing was changed.`);
  const fp = await rewind.plan(await rewindInput(store, session, rewind), target);

  const { cut, lines, transcript } = fp;
  const changes: PlannedFile[] = [];
  const files: RewindPlan['body']['files'] = [];
  for (const c of fp.changes) {
    const bytesAfter = await lineOffset(store, c.file, c.cutLine);
    const changed = c.cutLine <= c.file.lines;
    if (changed) changes.push({ file: c.file, cutLine: c.cutLine, bytesAfter });
    files.push({
      ledger: c.file.ledger,
      file: c.file.relPath,
      path: c.file.path,
      lines_before: c.file.lines,
      lines_after: changed ? c.cutLine - 1 : c.file.lines,
      bytes_before: c.file.size,
      bytes_after: changed ? bytesAfter : c.file.size,
    });
  }
  const messages = messagesOf(lines);
  const turns = turnStarts(lines);
  const cutLine = lines.find((l) => l.line >= cut.line);
  const orphans = keptOrphans(lines, cut.line);
  const warnings = [...fp.warnings];
  if (orphans.length > 0) {
    warnings.push(`kept tool call(s) ${orphans.join(', ')} had no result in the original either (an interrupted call); the agent may need to answer them on resume.`);
  }
  if (fp.subagents.length > 0) {
    warnings.push(
      `child session(s) ${fp.subagents.map((s) => `${s.session_id} (${s.kind})`).join(', ')} started past the cut (their starting call is cut away, or they were forked later); their files are left in place: rewind never deletes files.`,
    );
  }
  return {
    session,
    rewind,
    changes,
    body: {
      session_id: session.id,
      format: session.format,
      target: {
        kind: target.kind,
        requested: requestedOf(target),
        ledger: transcript.ledger,
        file: transcript.relPath,
        line_number: cut.line,
        timestamp: keyToIso(cutLine?.tsKey ?? null),
        adjusted: cut.adjusted,
        moved_before_tool_calls: cut.movedBefore,
      },
      files,
      removed: {
        messages: messages.filter((m) => m.line >= cut.line).length,
        events: fp.removedEvents,
        tool_calls: fp.removedToolCalls,
      },
      nothing_to_remove: changes.length === 0,
      turn_count_before: turns.length,
      turn_count_after: turns.filter((l) => l < cut.line).length,
      message_count_before: messages.length,
      message_count_after: messages.filter((m) => m.line < cut.line).length,
      subagents_left_in_place: fp.subagents,
      metadata: fp.metadata,
      warnings,
    },
  };
}
