// Where a rewind cuts a transcript: the target (turn, message or time) gives a first line to
// remove; the cut then moves back to the start of the message that line belongs to, and before any
// tool call whose result it would remove, until neither rule moves it. Format modules only
// describe their lines (RewindLine); the rules live here once.

import { InvalidArguments } from '../../core/errors.js';
import { keyToIso, toTimeKey } from '../../core/time.js';
import type { StoredEvent } from '../../core/events.js';
import type { RewindCut, RewindLine, RewindTarget } from '../profile.js';

/**
 * Add `e` to the cut rules' view of its file (`lines`, in file order): the line it sits on (a new
 * one when it starts another), its event count and the tool calls and results it pairs. Formats
 * then mark what only they know (which line is a message, which opens a turn) on the line returned.
 */
export function addRewindEvent(lines: RewindLine[], e: StoredEvent): RewindLine {
  let l = lines[lines.length - 1];
  if (!l || l.line !== e.lineNumber) {
    l = { line: e.lineNumber, tsKey: e.tsKey, message: null, turnStart: false, calls: [], results: [], events: 0 };
    lines.push(l);
  }
  l.events++;
  if (e.kind === 'tool_call' && e.ids.toolCall !== undefined) l.calls.push(e.ids.toolCall);
  if (e.kind === 'tool_result' && e.ids.toolCall !== undefined) l.results.push(e.ids.toolCall);
  return l;
}

/** Ordered message keys with the line each starts on. */
export function messagesOf(lines: RewindLine[]): { key: string; line: number }[] {
  const seen = new Set<string>();
  const out: { key: string; line: number }[] = [];
  for (const l of lines) {
    if (l.message === null || seen.has(l.message)) continue;
    seen.add(l.message);
    out.push({ key: l.message, line: l.line });
  }
  return out;
}

export function turnStarts(lines: RewindLine[]): number[] {
  return lines.filter((l) => l.turnStart).map((l) => l.line);
}

/** The line the target names, before any adjustment. Throws INVALID_ARGUMENTS naming the valid range. */
function initialLine(lines: RewindLine[], totalLines: number, target: RewindTarget): number {
  const end = totalLines + 1;
  if (target.kind === 'turn') {
    const turns = turnStarts(lines);
    if (turns.length === 0) throw InvalidArguments('the session has no turns to rewind to.');
    if (target.n < 1 || target.n > turns.length) {
      throw InvalidArguments(`to_turn must be between 1 and ${turns.length} (the session has ${turns.length} turn(s)); got ${target.n}.`);
    }
    return target.n === turns.length ? end : turns[target.n]!;
  }
  const messages = messagesOf(lines);
  if (messages.length === 0) throw InvalidArguments('the session has no messages to rewind to.');
  if (target.kind === 'message') {
    if (target.n < 1 || target.n > messages.length) {
      throw InvalidArguments(
        `to_message must be between 1 and ${messages.length} (the session has ${messages.length} user and assistant message(s)); got ${target.n}.`,
      );
    }
    return target.n === messages.length ? end : messages[target.n]!.line;
  }
  const at = toTimeKey(target.at);
  if (at === null) throw InvalidArguments(`before must be an ISO-8601 timestamp such as 2026-02-10T22:00:00Z; got "${target.at}".`);
  const first = lines.find((l) => l.line === messages[0]!.line)?.tsKey ?? null;
  const last = lines.reduce<string | null>((m, l) => (l.tsKey !== null && (m === null || l.tsKey > m) ? l.tsKey : m), null);
  if (first !== null && at <= first) {
    throw InvalidArguments(
      `before must be later than the session's first message (${keyToIso(first)}); valid range: after ${keyToIso(first)}${last ? ` up to ${keyToIso(last)}` : ''}.`,
    );
  }
  return lines.find((l) => l.tsKey !== null && l.tsKey >= at)?.line ?? end;
}

/**
 * Resolve the cut: the target's line, moved back to its message's first line and before every
 * tool call whose result would be cut away, until stable. Calls with no result anywhere (an
 * interrupted call in the original) do not move it: the cut did not orphan them.
 */
export function resolveCut(lines: RewindLine[], totalLines: number, target: RewindTarget): RewindCut {
  let cut = initialLine(lines, totalLines, target);
  const start = cut;
  const messageStart = new Map<string, number>();
  for (const m of messagesOf(lines)) messageStart.set(m.key, m.line);
  const resultLine = new Map<string, number>();
  for (const l of lines) for (const id of l.results) if (!resultLine.has(id)) resultLine.set(id, l.line);
  const movedBefore: string[] = [];
  for (let changed = true; changed; ) {
    changed = false;
    const at = lines.find((l) => l.line >= cut);
    if (at && at.line === cut && at.message !== null) {
      const first = messageStart.get(at.message)!;
      if (first < cut) {
        cut = first;
        changed = true;
      }
    }
    for (const l of lines) {
      if (l.line >= cut) break;
      for (const id of l.calls) {
        const r = resultLine.get(id);
        if (r === undefined || r < cut) continue;
        movedBefore.push(id);
        cut = l.message !== null ? Math.min(l.line, messageStart.get(l.message)!) : l.line;
        changed = true;
      }
    }
  }
  const firstMessage = messagesOf(lines)[0]?.line;
  if (firstMessage !== undefined && cut <= firstMessage) {
    throw InvalidArguments('no cut at a message boundary keeps the first message without leaving a tool call unanswered; pick a later target.');
  }
  return { line: cut, adjusted: cut !== start, movedBefore: [...new Set(movedBefore)] };
}

/** Calls kept before the cut that have no result anywhere: orphans the original already had. */
export function keptOrphans(lines: RewindLine[], cut: number): string[] {
  const answered = new Set(lines.flatMap((l) => l.results));
  return lines.filter((l) => l.line < cut).flatMap((l) => l.calls.filter((id) => !answered.has(id)));
}
