// The JSONL chat (newer Gemini CLIs, ChatRecordingService): one record per line, appended.
//
//   {sessionId, projectHash, startTime, lastUpdated, kind?, directories?}  the header (first line;
//                                     a resumed legacy chat repeats it with its summary)
//   {id, timestamp, type, content, …}  a message; the same id written again replaces it
//   {$set: {…}}                        metadata update: lastUpdated (every save, no event),
//                                     summary (the title), directories, messages (a checkpoint
//                                     that replaces the history: a compaction event)
//   {$rewindTo: <message id>}          the user rewound: that message and the ones after it are
//                                     dropped from the conversation (a system event; the
//                                     evidence and the tokens already spent stay)
//
// The legacy document (document-parser.ts) shares the header and message handling.

import type { SessionFacts } from '../../core/model.js';
import type { LineContext, LineParser } from '../importer.js';
import { emptyState, firstReport, resumeState, type ChatState } from './chat-state.js';
import { asObj, asString, clip, nonEmpty, preview, type Obj } from './json.js';
import { messageEvents, provePath, type MessageSite } from './message-events.js';

/** Facts and events of a header (the JSONL first line, or the document's top-level fields). */
export function headerRecord(rec: Obj, ctx: LineContext, state: ChatState, part = 0): number {
  const id = ctx.file.sessionId;
  const written = nonEmpty(rec.sessionId);
  const own = asString(ctx.file.facts?.[0]?.attrs?.agentSessionId) ?? id;
  if (written && own && written !== own) {
    ctx.defect({
      severity: 'warning',
      kind: 'session_id_mismatch',
      message: `the chat names session ${clip(written, 80)} but was discovered as ${clip(own, 80)} (its first bytes said so); events stay with ${clip(id ?? own, 80)}`,
    });
  }
  const hash = nonEmpty(rec.projectHash);
  if (hash) state.projectHash = hash;
  if (id) {
    const facts: SessionFacts = { id, format: 'gemini', attrs: {} };
    if (hash) facts.attrs!.projectHash = hash;
    const kind = nonEmpty(rec.kind);
    if (kind) facts.attrs!.geminiKind = kind;
    const summary = nonEmpty(rec.summary);
    if (summary) facts.title = clip(summary, 200);
    if (Array.isArray(rec.directories)) facts.attrs!.directories = rec.directories.filter((d) => typeof d === 'string').slice(0, 20);
    ctx.facts(facts);
  }
  const site: MessageSite = { ctx, part, where: '', modelHint: false };
  if (Array.isArray(rec.directories)) provePath(site, state, rec.directories.filter((d): d is string => typeof d === 'string'));
  site.ctx.emit({
    part: site.part++,
    timestamp: asString(rec.startTime),
    type: 'session',
    kind: 'session_start',
    actor: 'system',
    turn: state.turn,
    summary: `Gemini CLI session ${clip(written ?? id ?? '', 80)}`,
    attrs: {},
  });
  return site.part;
}

function setRecord(set: Obj, ctx: LineContext, state: ChatState): void {
  const id = ctx.file.sessionId;
  const summary = nonEmpty(set.summary);
  if (id && summary) ctx.facts({ id, format: 'gemini', title: clip(summary, 200) });
  if (id && Array.isArray(set.directories)) {
    const dirs = set.directories.filter((d): d is string => typeof d === 'string');
    ctx.facts({ id, format: 'gemini', attrs: { directories: dirs.slice(0, 20) } });
    provePath({ ctx, part: 0, where: '', modelHint: true }, state, dirs);
  }
  if (Array.isArray(set.messages)) {
    ctx.emit({
      timestamp: asString(set.lastUpdated),
      type: '$set',
      kind: 'compaction',
      actor: 'system',
      turn: state.turn,
      summary: `conversation history replaced by ${set.messages.length} message${set.messages.length === 1 ? '' : 's'}`,
      attrs: { messages: set.messages.length },
    });
  }
}

function otherRecord(rec: Obj, ctx: LineContext, state: ChatState): void {
  const keys = Object.keys(rec).sort().slice(0, 6).join(',');
  if (firstReport(state, `record:${keys}`)) {
    ctx.defect({
      severity: 'info',
      kind: 'unknown_record',
      message: `record with keys {${clip(keys, 120)}} is not a header, message, $set or $rewindTo; kept as an 'other' event (reported once per shape and file)`,
    });
  }
  ctx.emit({ type: 'record', kind: 'other', turn: state.turn, summary: preview(rec, 200), attrs: {} });
}

/** Dispatch one parsed JSONL record. */
export function chatRecord(rec: Obj, ctx: LineContext, state: ChatState): void {
  if (typeof rec.id === 'string') {
    messageEvents(rec, { ctx, part: 0, where: '', modelHint: true }, state);
    return;
  }
  // ccusage takes a model named by any record as the hint for later replies without one.
  const model = nonEmpty(rec.model);
  if (model) state.lastModel = model;
  if (rec.$rewindTo !== undefined) {
    const target = asString(rec.$rewindTo);
    ctx.emit({
      type: '$rewindTo',
      kind: 'system',
      actor: 'user',
      turn: state.turn,
      summary: target ? `rewound: message ${clip(target, 80)} and everything after it were removed from the conversation` : 'rewind record without a message id',
      attrs: target ? { rewindTo: target } : {},
    });
    if (!target) ctx.defect({ severity: 'warning', kind: 'unexpected_field', message: '$rewindTo is not a message id; the rewind point is unknown' });
    return;
  }
  const set = rec.$set;
  if (set !== undefined) {
    if (asObj(set)) setRecord(set as Obj, ctx, state);
    else ctx.defect({ severity: 'warning', kind: 'unexpected_field', message: '$set is not an object; the update was ignored' });
    return;
  }
  if (typeof rec.sessionId === 'string') {
    headerRecord(rec, ctx, state);
    return;
  }
  otherRecord(rec, ctx, state);
}

export function createChatParser(resume: unknown): LineParser {
  const state = resume === undefined ? emptyState() : resumeState(resume);
  return {
    line(obj, ctx) {
      chatRecord(obj, ctx, state);
    },
    hugeLine(head, ctx) {
      // A reply with a pasted image or a huge tool output: its id and type still say what it was.
      const id = /"id"\s*:\s*"([^"\\]{1,200})"/.exec(head)?.[1];
      const type = /"type"\s*:\s*"([a-z_]{1,40})"/.exec(head)?.[1];
      const ts = /"timestamp"\s*:\s*"([^"\\]{1,60})"/.exec(head)?.[1];
      if (type === 'user') state.turn++;
      ctx.emit({
        timestamp: ts,
        type: type ?? 'record',
        kind: type === 'user' ? 'user_message' : type === 'gemini' ? 'assistant_message' : 'other',
        turn: state.turn,
        ids: id ? { message: id } : {},
        summary: `${type ?? 'record'} too large to read here (its usage, if any, is not counted); raw_lines returns it`,
        attrs: { huge: true },
      });
    },
    snapshot: () => state,
  };
}
