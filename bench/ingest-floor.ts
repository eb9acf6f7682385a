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

const seconds = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;

/** The floor's pieces for the store at `db` (an ingest's output, read only); `scratch` is a path for a throwaway store. */
export async function ingestFloor(db: string, scratch: string): Promise<IngestFloor> {
  const source = new Database(db, { readonly: true });
  try {
    const raws = (source.prepare('SELECT data, raw_bytes, file_id, first_line FROM blocks').all() as { data: Buffer; raw_bytes: number; file_id: number; first_line: number }[]).map(
      (b) => inflateBlock(b.data, b.raw_bytes, `file ${b.file_id}`, b.first_line),
    );
    let started = process.hrtime.bigint();
    for (const raw of raws) brotliCompressSync(raw, BROTLI_OPTIONS(raw.length));
    const compressSeconds = seconds(started);

    started = process.hrtime.bigint();
    for (const raw of raws) {
      for (let at = 0; at < raw.length; ) {
        const end = raw.indexOf(10, at);
        const stop = end === -1 ? raw.length : end + 1;
        lineHash(raw.subarray(at, stop));
        at = stop;
      }
    }
    const hashSeconds = seconds(started);

    // Every column but the row id, in the table's own order.
    const columns = (source.prepare('PRAGMA table_info(events)').all() as { name: string; pk: number }[]).filter((c) => c.pk === 0).map((c) => c.name);
    const rows = source.prepare(`SELECT ${columns.join(', ')} FROM events ORDER BY id`).raw().all() as unknown[][];
    for (const suffix of ['', '-wal', '-shm']) rmSync(scratch + suffix, { force: true });
    await (await openStore({ db: scratch })).close(); // today's schema, indexes included
    const target = new Database(scratch);
    try {
      target.pragma('journal_mode = WAL');
      target.pragma('synchronous = NORMAL');
      const insert = target.prepare(`INSERT INTO events (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      started = process.hrtime.bigint();
      target.exec('BEGIN');
      rows.forEach((row, i) => {
        insert.run(row);
        if (i % 4096 === 4095) target.exec('COMMIT; BEGIN');
      });
      target.exec('COMMIT');
      const rowsSeconds = seconds(started);
      return { compressSeconds, hashSeconds, rowsSeconds, blocks: raws.length, rows: rows.length };
    } finally {
      target.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(scratch + suffix, { force: true });
    }
  } finally {
    source.close();
  }
}
