// One OpenCode record, whichever way it was written: a database row as sqlite-rows.ts serialises
// it (`{"table":"message","id":…,"session_id":…,"time_created":…,"data":{…}}`, the session row as
// plain columns) or a storage/ document (the whole object, ids inside). Both become the same
// shape, so the parser has one meaning for each record.

import { asNumber, asObject, asString, nonEmpty, type Obj } from './json.js';
import { MESSAGE_LEDGER, PART_LEDGER, STORAGE_SESSION_LEDGER } from './layout.js';

export interface SessionRecord {
  table: 'session';
  id: string;
  projectId?: string;
  parentId?: string;
  directory?: string;
  title?: string;
  version?: string;
  slug?: string;
  agent?: string;
  created?: number;
  updated?: number;
  archived?: number;
}

export interface MessageRecord {
  table: 'message';
  id: string;
  sessionId?: string;
  /** The row's creation time (ms), else the message's own `time.created`. */
  created?: number;
  data: Obj;
}

export interface PartRecord {
  table: 'part';
  id: string;
  messageId?: string;
  sessionId?: string;
  /** The row's creation time (ms); storage/ documents have none. */
  created?: number;
  data: Obj;
}

export type OpenCodeRecord = SessionRecord | MessageRecord | PartRecord;

/** Why a line or document is no record, for the defect that says so. */
export interface NotARecord {
  problem: string;
}

/** The row's JSON: `data` as written, or `data_text` (a value that held a newline) parsed. */
function rowData(line: Obj): Obj | NotARecord {
  if ('data' in line) return asObject(line.data) ?? { problem: 'its data column is not a JSON object' };
  const text = asString(line.data_text);
  if (text === undefined) return { problem: 'it has no data column' };
  try {
    return asObject(JSON.parse(text)) ?? { problem: 'its data column is not a JSON object' };
  } catch {
    return { problem: 'its data column is not valid JSON' };
  }
}

function sessionFromRow(line: Obj, id: string): SessionRecord {
  return {
    table: 'session',
    id,
    projectId: nonEmpty(line.project_id),
    parentId: nonEmpty(line.parent_id),
    directory: nonEmpty(line.directory),
    title: asString(line.title),
    version: nonEmpty(line.version),
    slug: nonEmpty(line.slug),
    agent: nonEmpty(line.agent),
    created: asNumber(line.time_created),
    updated: asNumber(line.time_updated),
    archived: asNumber(line.time_archived),
  };
}

function sessionFromDocument(doc: Obj, id: string): SessionRecord {
  const time = asObject(doc.time);
  return {
    table: 'session',
    id,
    projectId: nonEmpty(doc.projectID),
    parentId: nonEmpty(doc.parentID),
    directory: nonEmpty(doc.directory),
    title: asString(doc.title),
    version: nonEmpty(doc.version),
    slug: nonEmpty(doc.slug),
    created: asNumber(time?.created),
    updated: asNumber(time?.updated),
    archived: asNumber(time?.archived),
  };
}

/** A database row line (sqlite-rows.ts envelope). */
export function recordOfRow(line: Obj): OpenCodeRecord | NotARecord {
  const table = asString(line.table);
  const id = nonEmpty(line.id);
  if (!id) return { problem: `the ${table ?? 'row'} has no id` };
  if (table === 'session') return sessionFromRow(line, id);
  if (table !== 'message' && table !== 'part') return { problem: `table ${JSON.stringify(table ?? null)} is not one Hindsight reads` };
  const data = rowData(line);
  if ('problem' in data) return { problem: `${table} ${id}: ${data.problem}` };
  const created = asNumber(line.time_created) ?? asNumber(asObject(data.time)?.created);
  if (table === 'message') return { table, id, sessionId: nonEmpty(line.session_id), created, data };
  return { table, id, messageId: nonEmpty(line.message_id), sessionId: nonEmpty(line.session_id), created: asNumber(line.time_created), data };
}

/** A storage/ document, by the ledger its folder gave it. */
export function recordOfDocument(doc: Obj, ledger: string): OpenCodeRecord | NotARecord {
  const id = nonEmpty(doc.id);
  if (!id) return { problem: `the ${ledger} document has no id` };
  if (ledger === STORAGE_SESSION_LEDGER) return sessionFromDocument(doc, id);
  if (ledger === MESSAGE_LEDGER) return { table: 'message', id, sessionId: nonEmpty(doc.sessionID), created: asNumber(asObject(doc.time)?.created), data: doc };
  if (ledger === PART_LEDGER) return { table: 'part', id, messageId: nonEmpty(doc.messageID), sessionId: nonEmpty(doc.sessionID), data: doc };
  return { problem: `ledger ${ledger} holds no OpenCode records` };
}
