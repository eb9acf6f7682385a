// The SQLite side of the ingest writer (core/ingest-writer.ts): the group is the connection's own
// open transaction, ids come from the tables themselves (one writer holds the ingest lock), and
// events go in row by row through one prepared statement, each with its FTS5 row.

import type Database from 'better-sqlite3';
import { keyToParts } from '../../core/time.js';
import type { IngestWriter } from '../store.js';
import { compactReasoning, compactTiebreak, compactUsageKey } from '../shared/event-row.js';
import { GROUP_BYTES, SqlIngestWriter, type WriteGroup } from '../core/ingest-writer.js';
import type { Sql } from '../core/sql.js';

export function sqliteWriter(db: Database.Database, sql: Sql, releaseLock: () => void): IngestWriter {
  const insertEvent = db.prepare(`INSERT INTO events (sid, seq, file_id, line_number, part, ts_ms, ts_ns, ts_missing, ledger_rank,
    tiebreak, type, kind, actor, turn, wo_id, tool_call_id, message_id, request_id, agent_id, entry_id, usage_key, model,
    tok_in, tok_out, tok_cw, tok_cr, tool_name, tool_status, summary, attrs, tok_rs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
    ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertFts = db.prepare('INSERT INTO message_fts (rowid, text) VALUES (?, ?)');
  // Prepared once: a file is created per source, and OpenCode has two sources per session (thousands).
  const nextIds = {
    roots: db.prepare('SELECT coalesce(max(id), 0) + 1 AS id FROM roots').pluck(),
    files: db.prepare('SELECT coalesce(max(id), 0) + 1 AS id FROM files').pluck(),
  };
  let bytes = 0;
  const commit = async () => {
    if (db.inTransaction) db.exec('COMMIT');
    bytes = 0;
  };
  const group: WriteGroup = {
    reads: sql,
    onAbandon: () => {},
    async write(op, size = 0) {
      if (!db.inTransaction) db.exec('BEGIN IMMEDIATE');
      // No savepoint per batch: FTS5 flushes its pending index at every savepoint, which turns
      // thousands of tiny batches into thousands of index segments. An error rolls back the
      // whole uncommitted group (and its checkpoints), which the next run simply re-reads.
      let out;
      try {
        out = await op(sql);
      } catch (err) {
        if (db.inTransaction) db.exec('ROLLBACK');
        bytes = 0;
        group.onAbandon();
        throw err;
      }
      bytes += size;
      if (bytes >= GROUP_BYTES) await commit();
      return out;
    },
    read: (op) => op(sql),
    commit,
    async transaction(body) {
      db.exec('BEGIN IMMEDIATE');
      try {
        await body(sql);
        db.exec('COMMIT');
      } catch (err) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw err;
      }
    },
    async nextId(table) {
      return nextIds[table].get() as number;
    },
    async insertEvents(_sql, fileId, events, sids, seqs) {
      events.forEach((e, i) => {
        const u = e.usage;
        const ids = e.ids;
        const [tsMs, tsNs] = e.tsKey ? keyToParts(e.tsKey) : [null, null];
        const res = insertEvent.run(
          sids[i], seqs[i], fileId, e.lineNumber, e.part, tsMs, tsNs, e.tsMissing ? 1 : 0, e.ledgerRank, compactTiebreak(e),
          e.type, e.kind, e.actor, e.turn, ids.workOrder ?? null, ids.toolCall ?? null, ids.message ?? null,
          ids.request ?? null, ids.agent ?? null, ids.entry ?? null, compactUsageKey(e), u ? u.model : null,
          u ? u.input : null, u ? u.output : null, u ? u.cacheWrite : null, u ? u.cacheRead : null, e.toolName,
          e.toolStatus, e.summary, Object.keys(e.attrs).length ? JSON.stringify(e.attrs) : null, compactReasoning(e),
        );
        if (e.text) insertFts.run(res.lastInsertRowid, e.text);
      });
    },
    async dropSearchRows(s, fileId, fromLine) {
      await s.run('DELETE FROM message_fts WHERE rowid IN (SELECT id FROM events WHERE file_id = $1 AND line_number >= $2)', [fileId, fromLine]);
    },
    async release() {
      releaseLock();
    },
  };
  return new SqlIngestWriter(group);
}
