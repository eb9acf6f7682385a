// The least CPU any ingest must spend to write a store with the content an ingest of `dir` wrote
// (issue 17 target 1: why "ingest at half of bare parsing" cannot be met on two cores). Measured
// on one thread, each piece alone, on the very bytes and rows of that store:
// - compress: every evidence block compressed again with the ingest's own options (evidence.ts);
// - hash: every line's hash (core/line-hash.ts) over the blocks' raw bytes;
// - rows: every event row inserted again into a fresh store through one prepared statement, with
//   no search-index rows (so this is an underestimate: FTS5 rows, summaries, usage groups, gram
//   filters and a format's own checks such as Control Plane's chain verification are left out).
// With the bare parse (read + JSON.parse) that makes a floor: on two cores perfectly shared, an
// ingest takes at least floor / 2 of wall time, so its ratio to the bare parse is at most
// 2 × parse / floor. A ceiling under 0.5 means no implementation of this store can meet the target
// here; a ceiling just over it means only one with no other cost at all could.

import { brotliCompressSync } from 'node:zlib';
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { BROTLI_OPTIONS } from '../src/ingest/evidence.js';
import { lineHash } from '../src/core/line-hash.js';
import { inflateBlock } from '../src/store/shared/visit-blocks.js';
import { openStore } from '../src/store/open.js';

export interface IngestFloor {
  compressSeconds: number;
  hashSeconds: number;
  rowsSeconds: number;
  blocks: number;
  rows: number;
}

/** The floor's pieces for the store at `db` (an ingest's output, read only); `scratch` is a path for a throwaway store. */
export async function ingestFloor(db: string, scratch: string): Promise<IngestFloor> {
  const source = new Database(db, { readonly: true });
  try {
    // Streamed a block at a time (a 1 GB store's evidence inflated at once would not fit the budget
    // a bench runs in); only the compression and the hashing are timed, not the inflation.
    let compressNs = 0n;
    let hashNs = 0n;
    let blocks = 0;
    const blockRows = source.prepare('SELECT data, raw_bytes, file_id, first_line FROM blocks ORDER BY id').iterate() as Iterable<{ data: Buffer; raw_bytes: number; file_id: number; first_line: number }>;
    for (const b of blockRows) {
      const raw = inflateBlock(b.data, b.raw_bytes, `file ${b.file_id}`, b.first_line);
      let started = process.hrtime.bigint();
      brotliCompressSync(raw, BROTLI_OPTIONS(raw.length));
      compressNs += process.hrtime.bigint() - started;
      started = process.hrtime.bigint();
      // Each line without its newline, as the ingest hashes it (evidence.ts).
      for (let at = 0; at < raw.length; ) {
        const end = raw.indexOf(10, at);
        const stop = end === -1 ? raw.length : end;
        lineHash(raw.subarray(at, stop));
        at = stop + 1;
      }
      hashNs += process.hrtime.bigint() - started;
      blocks++;
    }

    // Every column but the row id, in the table's own order; rows streamed from the source, only
    // their inserts timed.
    const columns = (source.prepare('PRAGMA table_info(events)').all() as { name: string; pk: number }[]).filter((c) => c.pk === 0).map((c) => c.name);
    for (const suffix of ['', '-wal', '-shm']) rmSync(scratch + suffix, { force: true });
    await (await openStore({ db: scratch })).close(); // today's schema, indexes included
    const target = new Database(scratch);
    try {
      target.pragma('journal_mode = WAL');
      target.pragma('synchronous = NORMAL');
      const insert = target.prepare(`INSERT INTO events (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      let rowsNs = 0n;
      let rows = 0;
      target.exec('BEGIN');
      for (const row of source.prepare(`SELECT ${columns.join(', ')} FROM events ORDER BY id`).raw().iterate() as Iterable<unknown[]>) {
        const started = process.hrtime.bigint();
        insert.run(row);
        if (++rows % 4096 === 0) target.exec('COMMIT; BEGIN');
        rowsNs += process.hrtime.bigint() - started;
      }
      target.exec('COMMIT');
      const s = (ns: bigint) => Number(ns) / 1e9;
      return { compressSeconds: s(compressNs), hashSeconds: s(hashNs), rowsSeconds: s(rowsNs), blocks, rows };
    } finally {
      target.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(scratch + suffix, { force: true });
    }
  } finally {
    source.close();
  }
}
