// The sessions of an OpenCode database, each as two row sources (src/ingest/sqlite-rows.ts): its
// `session` row, and its `message` rows each followed by its `part` rows, in the order OpenCode
// itself reads a conversation (messages by creation time and id, a message's parts by id).
//
// Discovery reads only small things, read-only: the session rows (every column Hindsight knows,
// never `share_url`) and per-session aggregates of message and part rows (count, last and summed
// time_updated), which OpenCode moves on every insert and update. Those make each source's
// version, so a session whose rows did not change is skipped without reading its messages. Only
// `session`, `message` and `part` are named in any query; credential tables never are.

import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { relative } from 'node:path';
import type { SourceFile } from '../importer.js';
import { compareNames, LEDGER_RANK, MESSAGES_LEDGER, SESSION_LEDGER } from './layout.js';

/** How long discovery waits for a writer's lock before giving up (OpenCode may be writing). */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Session columns read, when the database has them: everything OpenCode keeps about a session but
 * the share link (`share_url`; its secret lives in `session_share`, which is never read).
 */
const SESSION_COLUMNS = [
  'id', 'project_id', 'workspace_id', 'parent_id', 'slug', 'directory', 'path', 'title', 'version', 'agent', 'model',
  'summary_additions', 'summary_deletions', 'summary_files', 'summary_diffs', 'metadata', 'revert', 'permission', 'goal',
  'cost', 'tokens_input', 'tokens_output', 'tokens_reasoning', 'tokens_cache_read', 'tokens_cache_write',
  'time_created', 'time_updated', 'time_compacting', 'time_archived',
];

export interface DatabaseSessions {
  files: SourceFile[];
  /** Ids of every message in the database (storage/ copies of them are evidence only). */
  messageIds: Set<string>;
  sessionIds: Set<string>;
}

interface Aggregate {
  rows: number;
  last: number;
  sum: number;
}

function columnsOf(db: Database.Database, table: string): Set<string> {
  return new Set((db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map((r) => r.name));
}

/** Per session: how many rows, their last and summed time_updated. */
function aggregates(db: Database.Database, table: 'message' | 'part', columns: Set<string>): Map<string, Aggregate> {
  const updated = columns.has('time_updated') ? 'time_updated' : columns.has('time_created') ? 'time_created' : '0';
  // Without any time column a change can only be seen by size (the oldest development schemas).
  const sum = updated === '0' ? 'total(length(data))' : `total(${updated})`;
  const rows = db.prepare(`SELECT session_id AS id, count(*) AS n, max(${updated}) AS last, ${sum} AS total FROM "${table}" GROUP BY session_id`).all() as
    { id: string; n: number; last: number | null; total: number }[];
  return new Map(rows.map((r) => [String(r.id), { rows: r.n, last: Number(r.last ?? 0), sum: r.total }]));
}

/**
 * A number standing for the state of some rows: the last update time in ms (so it reads as an
 * mtime) plus a fraction from a hash of everything else, so that a deleted row, which moves no
 * time forward, still changes it. Multiples of 1/4096 are exact in a double at today's times.
 */
function versionOf(last: number, ...parts: unknown[]): number {
  const digest = createHash('sha256').update(JSON.stringify(parts)).digest();
  return Math.max(0, Math.floor(last)) + ((digest.readUInt16BE(0) % 4095) + 1) / 4096;
}

function col(columns: Set<string>, name: string, prefix = ''): string {
  return columns.has(name) ? `${prefix}${name}` : 'NULL';
}

/** The SELECT of a session's messages, each followed by its parts (a part without its message first). */
function messagesSql(message: Set<string>, part: Set<string>, hasParts: boolean): string {
  const m = (name: string) => col(message, name);
  const messageRows = `SELECT 'message' AS "table", id, NULL AS message_id, session_id, ${m('time_created')} AS time_created, ${m('time_updated')} AS time_updated,
    CAST(data AS BLOB) AS data, ${m('time_created')} AS k_time, id AS k_message, 0 AS k_kind, '' AS k_part FROM message WHERE session_id = ?`;
  if (!hasParts) return `SELECT "table", id, message_id, session_id, time_created, time_updated, data FROM (${messageRows}) ORDER BY k_time, k_message, k_kind, k_part`;
  const p = (name: string) => col(part, name, 'p.');
  const partRows = `SELECT 'part', p.id, p.message_id, p.session_id, ${p('time_created')}, ${p('time_updated')}, CAST(p.data AS BLOB),
    ${col(message, 'time_created', 'm.')}, m.id, 1, p.id FROM part p LEFT JOIN message m ON m.id = p.message_id WHERE p.session_id = ?`;
  return `SELECT "table", id, message_id, session_id, time_created, time_updated, data FROM (${messageRows} UNION ALL ${partRows})
    ORDER BY k_time, k_message, k_kind, k_part`;
}

/**
 * The row sources of every session in `dbPath`. Throws when the database cannot be opened or
 * has no `message` table (the caller reports it on the root).
 */
export function discoverDatabase(root: string, dbPath: string): DatabaseSessions {
  const rel = relative(root, dbPath).split('\\').join('/');
  const db = new Database(dbPath, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    const tables = new Set((db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('session', 'message', 'part')`).all() as { name: string }[]).map((r) => r.name));
    if (!tables.has('message')) throw new Error('it has no message table: not an OpenCode database, or one from a version Hindsight does not know');
    const messageColumns = columnsOf(db, 'message');
    const partColumns = tables.has('part') ? columnsOf(db, 'part') : new Set<string>();
    const sessionColumns = tables.has('session') ? columnsOf(db, 'session') : new Set<string>();
    const known = SESSION_COLUMNS.filter((c) => sessionColumns.has(c));
    const sessions = known.includes('id')
      ? (db.prepare(`SELECT ${known.map((c) => `"${c}"`).join(', ')} FROM session`).all() as Record<string, unknown>[])
      : [];
    const messages = aggregates(db, 'message', messageColumns);
    const parts = tables.has('part') && partColumns.has('session_id') ? aggregates(db, 'part', partColumns) : new Map<string, Aggregate>();
    const messageIds = new Set((db.prepare('SELECT id FROM message').pluck().all() as unknown[]).map(String));

    const byId = new Map(sessions.map((s) => [String(s.id), s]));
    const ids = [...new Set([...byId.keys(), ...messages.keys(), ...parts.keys()])].sort(compareNames);
    const sessionSql = `SELECT 'session' AS "table", ${known.map((c) => `"${c}"`).join(', ')} FROM session WHERE id = ?`;
    const sql = messagesSql(messageColumns, partColumns, tables.has('part'));
    const files: SourceFile[] = [];
    for (const id of ids) {
      const row = byId.get(id);
      if (row) {
        files.push({
          path: `${dbPath}/${SESSION_LEDGER}/${id}.jsonl`,
          root,
          relPath: `${rel}/${SESSION_LEDGER}/${id}.jsonl`,
          ledger: SESSION_LEDGER,
          ledgerRank: LEDGER_RANK[SESSION_LEDGER]!,
          sessionId: id,
          kind: 'jsonl',
          rows: { db: dbPath, sql: sessionSql, params: [id], version: versionOf(Number(row.time_updated ?? 0), row) },
        });
      }
      const m = messages.get(id) ?? { rows: 0, last: 0, sum: 0 };
      const p = parts.get(id) ?? { rows: 0, last: 0, sum: 0 };
      if (m.rows + p.rows === 0) continue; // a session opened and left: nothing but its row
      const file: SourceFile = {
        path: `${dbPath}/${MESSAGES_LEDGER}/${id}.jsonl`,
        root,
        relPath: `${rel}/${MESSAGES_LEDGER}/${id}.jsonl`,
        ledger: MESSAGES_LEDGER,
        ledgerRank: LEDGER_RANK[MESSAGES_LEDGER]!,
        sessionId: id,
        kind: 'jsonl',
        rows: { db: dbPath, sql, params: tables.has('part') ? [id, id] : [id], version: versionOf(Math.max(m.last, p.last), m, p) },
        facts: [{ id, format: 'opencode' }],
      };
      if (!row) {
        file.notes = [{ severity: 'warning', kind: 'missing_session_row', file: file.relPath, line: null, message: `session ${id} has messages but no row in the session table: its title, folder and parent are unknown`, sessionId: id }];
      }
      files.push(file);
    }
    return { files, messageIds, sessionIds: new Set(byId.keys()) };
  } finally {
    db.close();
  }
}
