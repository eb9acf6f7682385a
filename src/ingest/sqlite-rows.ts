// A database is a source too: the rows of one SELECT on a SQLite database (OpenCode's
// opencode.db), serialised as JSONL so that the ingest pipeline reads them exactly as it reads a
// file — evidence, line numbers, resume, the rewritten-source check and raw_lines all work on
// these bytes unchanged.
//
// One line per row: `{"<column>":<value>,…,"data":<the data column's bytes>}`. The columns name
// the row (table, id, session…) so a line says where it came from; the `data` column, which holds
// the row's own JSON, is copied byte for byte (selected as a BLOB, never decoded and re-encoded),
// so the evidence of a row is exactly what the database holds. Null columns are left out. A data
// value with a newline in it cannot sit on one line: it is written as a JSON string under
// `data_text` instead (nothing is lost; such a value is not the compact JSON writers store).
//
// The connection is read-only and short-lived (kept only while reads follow one another): it never
// writes, holds no lock between reads, and works while the owner writes (WAL readers see the last
// committed state; a busy database is waited on for BUSY_TIMEOUT_MS). Only the tables the query
// names are read: an importer must never name a table holding credentials.

import Database from 'better-sqlite3';
import type { RowSource, SourceFile } from '../formats/importer.js';
import { holdBytes } from './held-bytes.js';

/** How long a read waits for a writer's lock (a checkpoint, a schema change) before failing. */
export const BUSY_TIMEOUT_MS = 5000;

const NEWLINE = 0x0a;
const CLOSE = Buffer.from('}\n');

/** A database that cannot be read; the message names it and says why. */
export class RowSourceError extends Error {}

/**
 * Open `db` read-only; errors say which database and why.
 *
 * @example const conn = openReadOnly('/home/me/.local/share/opencode/opencode.db');
 */
export function openReadOnly(db: string): Database.Database {
  try {
    return new Database(db, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  } catch (err) {
    throw new RowSourceError(`cannot open the database ${db} read-only: ${(err as Error).message}`);
  }
}

/** One value as JSON text (BLOBs other than `data` as UTF-8 text, big integers as numbers). */
function jsonValue(value: unknown): string {
  if (Buffer.isBuffer(value)) return JSON.stringify(value.toString('utf8'));
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
}

/**
 * The connection of the last database read, kept while reads follow one another (an ingest reads
 * every session of one database in turn: opening it and preparing the query each time cost more
 * than reading the rows) and closed once reads stop for IDLE_CLOSE_MS, so nothing stays open.
 */
const IDLE_CLOSE_MS = 250;
let open: { db: string; conn: Database.Database; statements: Map<string, Database.Statement>; timer: NodeJS.Timeout } | null = null;

function closeOpen(): void {
  if (!open) return;
  clearTimeout(open.timer);
  open.conn.close();
  open = null;
}

function statementFor(db: string, sql: string): Database.Statement {
  if (open && open.db !== db) closeOpen();
  if (!open) open = { db, conn: openReadOnly(db), statements: new Map(), timer: setTimeout(closeOpen, IDLE_CLOSE_MS) };
  open.timer.refresh();
  open.timer.unref();
  let statement = open.statements.get(sql);
  if (!statement) {
    statement = open.conn.prepare(sql).raw(true);
    open.statements.set(sql, statement);
  }
  return statement;
}

/**
 * Run `source.sql` on a read-only connection and return its rows as JSONL bytes (one line per
 * row, each ending with a newline). A last result column named `data` is embedded verbatim.
 *
 * @example readRows({ db, sql: 'SELECT id, CAST(data AS BLOB) AS data FROM message WHERE session_id = ?', params: ['ses_1'], version: 0 });
 */
export function readRows(source: RowSource): Buffer {
  try {
    const statement = statementFor(source.db, source.sql);
    const names = statement.columns().map((c) => c.name);
    const last = names.length - 1;
    const dataLast = names[last] === 'data';
    const end = dataLast ? last : names.length;
    const keys = names.map((n) => `${JSON.stringify(n)}:`);
    // All rows at once (cheaper than a trip into SQLite per row), then each line as one string of
    // its columns up to the data column's bytes, and everything copied once into a buffer of the
    // exact size: no small buffer per line piece and no concatenation of thousands of them.
    const rows = statement.all(...(source.params ?? [])) as unknown[][];
    const heads: string[] = new Array(rows.length);
    const datas: (Buffer | null)[] = new Array(rows.length);
    let total = 0;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      // The columns as JSON text, then the data column's bytes as they are.
      let head = '{';
      for (let i = 0; i < end; i++) {
        const value = row[i];
        if (value === null || value === undefined) continue;
        head += `${head.length > 1 ? ',' : ''}${keys[i]}${jsonValue(value)}`;
      }
      const data = dataLast ? row[last] : null;
      let bytes: Buffer | null = null;
      if (data === null || data === undefined) head += '}\n';
      else {
        const raw = Buffer.isBuffer(data) ? data : Buffer.from(String(data), 'utf8');
        const sep = head.length > 1 ? ',' : '';
        if (raw.indexOf(NEWLINE) === -1) {
          head += `${sep}"data":`;
          bytes = raw;
          total += raw.length + CLOSE.length;
        } else head += `${sep}"data_text":${JSON.stringify(raw.toString('utf8'))}}\n`;
      }
      heads[r] = head;
      datas[r] = bytes;
      total += Buffer.byteLength(head);
    }
    const out = Buffer.allocUnsafe(total);
    let at = 0;
    for (let r = 0; r < rows.length; r++) {
      at += out.write(heads[r]!, at);
      const bytes = datas[r];
      if (bytes) {
        at += bytes.copy(out, at);
        at += CLOSE.copy(out, at);
      }
    }
    return out;
  } catch (err) {
    if (err instanceof RowSourceError) throw err;
    closeOpen(); // a failed read leaves nothing open behind it
    throw new RowSourceError(`cannot read the database ${source.db}: ${(err as Error).message}`);
  }
}

/** Size and version of a row source, as the pipeline's size and mtime of a file. */
export interface RowsStat {
  size: number;
  mtimeMs: number;
}

/**
 * Stat a row source for the pipeline. When its version is the one stored at the last ingest the
 * rows are not read (the stored size stands); otherwise they are read now and held under the
 * source's path for the line reader (held-bytes.ts) until the caller releases them.
 */
export function statRows(source: SourceFile & { rows: RowSource }, known: RowsStat | null): RowsStat {
  const version = source.rows.version;
  if (known && known.mtimeMs === version && known.size >= 0) return { size: known.size, mtimeMs: version };
  const bytes = readRows(source.rows);
  holdBytes(source.path, bytes);
  return { size: bytes.length, mtimeMs: version };
}
