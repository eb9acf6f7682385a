// A session's events in timeline order — the one place the store reads them. Rows come in
// index order (sid, seq) and are sorted in memory with compareTimeline, the same order every
// tool uses; an SQL sort over the join would cost a temporary B-tree per session.

import type Database from 'better-sqlite3';
import type { EventKind } from '../../core/model.js';
import { partsToKey } from '../../core/time.js';
import { compareTimeline } from '../../core/timeline-order.js';
import type { StoredEvent } from '../../importers/importer.js';

// The file's ledger and path are looked up once per file, not joined per row: materialising a
// long path string for every event doubled the cost of summaries.
const SELECT = `SELECT e.seq, e.file_id, NULL, e.line_number, e.part, e.ts_ms, e.ts_ns, e.type, e.kind, e.actor,
  e.turn, e.wo_id, e.tool_call_id, e.message_id, e.request_id, e.agent_id, e.entry_id, e.tiebreak, e.ledger_rank,
  e.usage_key, e.model, e.tok_in, e.tok_out, e.tok_cw, e.tok_cr, e.tool_name, e.tool_status, e.summary, e.attrs
  FROM events e WHERE e.sid = ? ORDER BY e.seq`;

/** One event from a raw row of SELECT (column order above), without an intermediate object. */
function eventFromRaw(r: unknown[], sessionId: string, file: FileName): StoredEvent {
  const ids: StoredEvent['ids'] = {};
  if (r[11] !== null) ids.workOrder = r[11] as string;
  if (r[12] !== null) ids.toolCall = r[12] as string;
  if (r[13] !== null) ids.message = r[13] as string;
  if (r[14] !== null) ids.request = r[14] as string;
  if (r[15] !== null) ids.agent = r[15] as string;
  if (r[16] !== null) ids.entry = r[16] as string;
  return {
    seq: r[0] as number,
    sessionId,
    ledger: file.ledger,
    file: file.rel_path,
    lineNumber: r[3] as number,
    part: r[4] as number,
    tsKey: r[5] === null ? null : partsToKey(r[5] as number, (r[6] as number | null) ?? 0),
    type: r[7] as string,
    kind: r[8] as EventKind,
    actor: r[9] as string | null,
    turn: r[10] as number | null,
    ids,
    // Stored NULL when equal to the entry id, usage key when equal to message:request (compact rows).
    tiebreak: (r[17] as string | null) ?? ids.entry ?? '',
    ledgerRank: r[18] as number,
    usage:
      r[21] === null
        ? null
        : {
            key: (r[19] as string | null) ?? `${ids.message}:${ids.request}`,
            model: r[20] as string | null,
            input: r[21] as number,
            output: (r[22] as number | null) ?? 0,
            cacheWrite: (r[23] as number | null) ?? 0,
            cacheRead: (r[24] as number | null) ?? 0,
          },
    toolName: r[25] as string | null,
    toolStatus: r[26] as StoredEvent['toolStatus'],
    summary: r[27] as string,
    attrs: r[28] ? (JSON.parse(r[28] as string) as Record<string, unknown>) : {},
  };
}

interface FileName {
  ledger: string;
  rel_path: string;
}

const statements = new WeakMap<Database.Database, { events: Database.Statement; file: Database.Statement }>();

/** Every event of session `sid` (whose id is `sessionId`), in timeline order. */
export function readSessionEvents(db: Database.Database, sid: number, sessionId: string): StoredEvent[] {
  let st = statements.get(db);
  if (!st) {
    st = { events: db.prepare(SELECT).raw(true), file: db.prepare('SELECT ledger, rel_path FROM files WHERE id = ?') };
    statements.set(db, st);
  }
  const files = new Map<number, FileName>();
  const fileOf = (id: number): FileName => {
    let f = files.get(id);
    if (!f) {
      f = (st.file.get(id) as FileName | undefined) ?? { ledger: '', rel_path: '' };
      files.set(id, f);
    }
    return f;
  };
  return (st.events.all(sid) as unknown[][]).map((r) => eventFromRaw(r, sessionId, fileOf(r[1] as number))).sort(compareTimeline);
}
