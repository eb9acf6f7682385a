// One parser for every OpenCode source: the database streams (a session's row; its messages each
// followed by its parts) and the storage/ documents (one record each). A record becomes facts
// (the session), an LLM call (an assistant message, with its usage and error), or the events of
// a part (parts.ts). The state kept between lines is the message whose parts follow it.

import type { SessionFacts } from '../../core/model.js';
import type { EventInput, LineContext, LineParser, ParserOptions, SourceFile } from '../importer.js';
import { asObject, asString, clip, msToIso, nonEmpty } from './json.js';
import { rememberMessage, roleOf, storedMessage, type MessageContext } from './message-context.js';
import { MESSAGE_LEDGER, MESSAGES_LEDGER } from './layout.js';
import { KNOWN_PART_TYPES, partEvents } from './parts.js';
import { recordOfDocument, recordOfRow, type MessageRecord, type SessionRecord } from './records.js';
import { messageUsage } from './usage.js';

interface State {
  /** The last message read: its parts come next in the database stream. */
  message: MessageContext | null;
  /** Part types OpenCode does not write, already reported in this file. */
  unknownTypes: string[];
}

/** A folder path as a project name, the way Claude Code names its project folders. */
export function projectSlug(directory: string): string {
  return directory.replace(/[^A-Za-z0-9]/g, '-');
}

/** What a session record says about its session. */
export function sessionFacts(rec: SessionRecord, mainLedger: string): SessionFacts {
  const attrs: Record<string, unknown> = {};
  if (rec.projectId) attrs.projectId = rec.projectId;
  if (rec.version) attrs.version = rec.version;
  if (rec.slug) attrs.slug = rec.slug;
  if (rec.archived) attrs.archivedAt = msToIso(rec.archived) ?? null;
  return {
    id: rec.id,
    format: 'opencode',
    ...(rec.title !== undefined && rec.title !== '' ? { title: rec.title } : {}),
    ...(rec.directory ? { projectPath: rec.directory, project: projectSlug(rec.directory) } : {}),
    parentId: rec.parentId ?? null,
    kind: rec.parentId ? 'subagent' : 'root',
    ...(rec.agent ? { agentName: rec.agent } : {}),
    mainLedger,
    attrs,
  };
}

function assistantEvents(rec: MessageRecord, emit: (e: EventInput) => void): void {
  const data = rec.data;
  const time = asObject(data.time);
  const at = msToIso(time?.created) ?? msToIso(rec.created);
  const used = messageUsage(rec.id, data);
  const error = asObject(data.error);
  const errorName = asString(error?.name);
  const finish = asString(data.finish);
  const model = nonEmpty(data.modelID);
  const provider = nonEmpty(data.providerID);
  emit({
    timestamp: at,
    type: 'assistant',
    kind: 'llm_call',
    actor: 'assistant',
    ids: { message: rec.id },
    ...(used ? { usage: used.usage } : {}),
    summary: `${[provider, model].filter(Boolean).join('/') || 'model'}${finish ? ` (${finish})` : time?.completed === undefined && !error ? ' (streaming)' : ''}`,
    attrs: {
      model: model ?? null,
      provider: provider ?? null,
      agent: asString(data.agent) ?? asString(data.mode) ?? null,
      finish: finish ?? null,
      completed: time?.completed !== undefined,
      ...(errorName ? { errorName } : {}),
      ...(used?.costUsd !== undefined ? { costUsd: used.costUsd } : {}),
      ...(used && used.reasoning > 0 ? { reasoningTokens: used.reasoning } : {}),
      ...(used && used.extraOutput > 0 ? { extraOutputTokens: used.extraOutput } : {}),
    },
  });
  if (!error) return;
  const message = asString(asObject(error.data)?.message) ?? '';
  const aborted = errorName === 'MessageAbortedError';
  emit({
    part: 1,
    timestamp: msToIso(time?.completed) ?? at,
    type: aborted ? 'aborted' : 'error',
    kind: aborted ? 'warning' : 'error',
    ids: { message: rec.id },
    summary: clip(`${errorName ?? 'Error'}${message ? `: ${message}` : ''}`, 400),
    attrs: { errorName: errorName ?? null },
  });
}

export function createOpenCodeParser(file: SourceFile, options: ParserOptions): LineParser {
  const resumed = options.resumeState as State | undefined;
  const state: State = { message: resumed?.message ?? null, unknownTypes: [...(resumed?.unknownTypes ?? [])] };
  const fromDocument = file.kind === 'document';

  function record(obj: Record<string, unknown>, ctx: LineContext): void {
    const rec = fromDocument ? recordOfDocument(obj, file.ledger) : recordOfRow(obj);
    if ('problem' in rec) {
      ctx.defect({ severity: 'error', kind: 'not_an_opencode_record', message: `not an OpenCode record: ${rec.problem}` });
      return;
    }
    const named = rec.table === 'session' ? rec.id : rec.sessionId;
    if (named && file.sessionId && named !== file.sessionId) {
      ctx.defect({ severity: 'warning', kind: 'foreign_session', message: `${rec.table} ${rec.id} names session ${named}, not ${file.sessionId} whose records these are` });
    }
    // A record of a file that names no session (a storage/ part whose message has no document) routes itself.
    const route = file.sessionId === undefined && named ? { sessionId: named } : {};
    const emit = (e: EventInput) => ctx.emit({ tiebreak: rec.id, ...route, ...e });
    if (rec.table === 'session') {
      ctx.facts(sessionFacts(rec, fromDocument ? MESSAGE_LEDGER : MESSAGES_LEDGER));
      emit({ timestamp: msToIso(rec.created), type: 'session', kind: 'session_start', summary: clip(rec.title ?? ''), attrs: { directory: rec.directory ?? null } });
      return;
    }
    if (rec.table === 'message') {
      const role = roleOf(rec.data.role);
      state.message = { id: rec.id, role, ...(rec.created !== undefined ? { created: rec.created } : {}) };
      if (fromDocument) rememberMessage(state.message);
      if (role === 'assistant') assistantEvents(rec, emit);
      else {
        if (role === 'unknown') ctx.defect({ severity: 'warning', kind: 'unknown_message_role', message: `message ${rec.id} has role ${JSON.stringify(rec.data.role ?? null)}` });
        // OpenCode puts tokens on assistant messages only; ccusage counts any message that has them.
        const used = messageUsage(rec.id, rec.data);
        if (used) emit({ timestamp: msToIso(asObject(rec.data.time)?.created) ?? msToIso(rec.created), type: 'message.usage', kind: 'other', ids: { message: rec.id }, usage: used.usage, summary: `${role} message with usage`, attrs: { role } });
      }
      return;
    }
    const messageId = rec.messageId ?? nonEmpty(rec.data.messageID);
    let message: MessageContext | undefined;
    if (messageId && state.message?.id === messageId) message = state.message;
    else if (messageId && fromDocument) message = storedMessage(file.path, rec.sessionId ?? file.sessionId, messageId);
    if (!message) ctx.defect({ severity: 'warning', kind: 'part_without_message', message: `part ${rec.id} belongs to message ${messageId ?? '(none)'}, which was not found before it` });
    const known = partEvents({ ...rec, ...(messageId ? { messageId } : {}) }, message, emit);
    const type = asString(rec.data.type) ?? 'unknown';
    if (!known && !KNOWN_PART_TYPES.has(type) && !state.unknownTypes.includes(type)) {
      state.unknownTypes.push(type);
      ctx.defect({ severity: 'info', kind: 'unknown_part_type', message: `part type ${JSON.stringify(type)} is not one OpenCode is known to write; shown as other` });
    }
  }

  /**
   * A row over 8 MiB (a tool that read a huge file, an image pasted as a data URL): what its first
   * 64 KiB say — the row's ids, the part's type, tool, call id and status, all written before the
   * bulky text — is enough for its place on the timeline; the row itself stays whole as evidence.
   */
  function hugeRow(head: string, ctx: LineContext): void {
    const field = (name: string) => new RegExp(`"${name}":"((?:[^"\\\\]|\\\\.){1,200})"`).exec(head)?.[1];
    const table = field('table');
    const id = field('id');
    const time = /"time_created":(\d+)/.exec(head)?.[1];
    if (table !== 'part' || !id) {
      ctx.defect({ severity: 'warning', kind: 'oversized_record', message: `a ${table ?? 'row'} over 8 MiB: kept as evidence, not read` });
      return;
    }
    const type = field('type') ?? 'unknown';
    const data: Record<string, unknown> = { type, text: '(text over 8 MiB: see the evidence line)' };
    if (type === 'tool') Object.assign(data, { tool: field('tool'), callID: field('callID'), state: { status: field('status') ?? 'unknown', output: '(output over 8 MiB: see the evidence line)' } });
    const messageId = field('message_id');
    record({ table: 'part', id, ...(messageId ? { message_id: messageId } : {}), ...(time ? { time_created: Number(time) } : {}), data }, ctx);
  }

  return {
    line: record,
    hugeLine: hugeRow,
    document(doc, ctx) {
      const obj = asObject(doc);
      if (obj) record(obj, ctx);
      else if (doc !== null) ctx.defect({ severity: 'error', kind: 'not_an_opencode_record', message: 'not an OpenCode record: the document is not a JSON object' });
    },
    snapshot: () => ({ message: state.message, unknownTypes: state.unknownTypes }),
  };
}
