// Database rows as a JSONL source: the envelope, byte-exact data, a read-only connection that
// works while the owner writes, and the version that lets unchanged rows go unread.

import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers.js';
import type { SourceFile } from '../formats/importer.js';
import { heldBytes, holdBytes, releaseBytes } from './held-bytes.js';
import { readLines } from './line-reader.js';
import { readRows, RowSourceError, statRows } from './sqlite-rows.js';

function makeDb(): { path: string; db: Database.Database } {
  const path = join(tempDir('hs-rows-'), 'app.db');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, data TEXT NOT NULL)');
  db.exec('CREATE TABLE secret (value TEXT)');
  return { path, db };
}

const SQL = 'SELECT \'message\' AS "table", id, session_id, time_created, CAST(data AS BLOB) AS data FROM message WHERE session_id = ? ORDER BY time_created, id';

describe('readRows', () => {
  it('writes one line per row: the columns as JSON, the data column verbatim, nulls left out', () => {
    const { path, db } = makeDb();
    const data = '{"role":"user","text":"caf\u00e9 \u2028 ok","n":1.50}';
    db.prepare('INSERT INTO message VALUES (?, ?, ?, ?)').run('m2', 's1', 20, '{"role":"assistant"}');
    db.prepare('INSERT INTO message VALUES (?, ?, ?, ?)').run('m1', 's1', 10, data);
    db.prepare('INSERT INTO message VALUES (?, ?, ?, ?)').run('m3', 's2', 5, '{}');
    const bytes = readRows({ db: path, sql: SQL, params: ['s1'], version: 1 });
    const lines = bytes.toString('utf8').split('\n');
    expect(lines).toEqual([
      `{"table":"message","id":"m1","session_id":"s1","time_created":10,"data":${data}}`,
      '{"table":"message","id":"m2","session_id":"s1","time_created":20,"data":{"role":"assistant"}}',
      '',
    ]);
    // The row's JSON is kept byte for byte (1.50 stays 1.50: nothing was parsed and re-encoded).
    expect(bytes.includes(Buffer.from(data, 'utf8'))).toBe(true);
    const nulls = readRows({ db: path, sql: "SELECT 'x' AS \"table\", NULL AS parent, CAST('{}' AS BLOB) AS data", version: 0 });
    expect(nulls.toString()).toBe('{"table":"x","data":{}}\n');
  });

  it('writes rows with and without data, multi-byte columns and newline data side by side, each line whole', () => {
    const { path, db } = makeDb();
    const rows: [string, string, number, string][] = [
      ['m1', 's\u00e9', 1, '{"a":"\u00e9\u{1F600}"}'],
      ['m2', 's\u00e9', 2, '{\n"b":1}'],
      ['m3 \u2603 "q"', 's\u00e9', 3, '{}'],
    ];
    for (const r of rows) db.prepare('INSERT INTO message VALUES (?, ?, ?, ?)').run(...r);
    const sql = `SELECT 'message' AS "table", id, session_id, time_created, CASE WHEN id = 'm1' THEN NULL ELSE CAST(data AS BLOB) END AS data
      FROM message WHERE session_id = ? ORDER BY time_created`;
    const bytes = readRows({ db: path, sql, params: ['s\u00e9'], version: 1 });
    expect(bytes.toString('utf8')).toBe(
      [
        '{"table":"message","id":"m1","session_id":"s\u00e9","time_created":1}',
        `{"table":"message","id":"m2","session_id":"s\u00e9","time_created":2,"data_text":${JSON.stringify('{\n"b":1}')}}`,
        '{"table":"message","id":"m3 \u2603 \\"q\\"","session_id":"s\u00e9","time_created":3,"data":{}}',
        '',
      ].join('\n'),
    );
    expect(readRows({ db: path, sql, params: ['none'], version: 1 }).length).toBe(0);
  });

  it('keeps a data value that holds a newline on one line, as a JSON string', () => {
    const { path, db } = makeDb();
    db.prepare('INSERT INTO message VALUES (?, ?, ?, ?)').run('m1', 's1', 1, '{\n  "pretty": true\n}');
    const text = readRows({ db: path, sql: SQL, params: ['s1'], version: 1 }).toString('utf8');
    expect(text.split('\n')).toHaveLength(2);
    expect(JSON.parse(text).data_text).toBe('{\n  "pretty": true\n}');
  });

  it('reads while another connection holds a write transaction open, and never writes', () => {
    const { path, db } = makeDb();
    db.prepare('INSERT INTO message VALUES (?, ?, ?, ?)').run('m1', 's1', 1, '{"a":1}');
    db.exec('BEGIN IMMEDIATE');
    db.prepare('INSERT INTO message VALUES (?, ?, ?, ?)').run('m2', 's1', 2, '{"a":2}');
    // The uncommitted row is not seen; the committed one is, without waiting for the writer.
    const during = readRows({ db: path, sql: SQL, params: ['s1'], version: 1 }).toString();
    expect(during.trim().split('\n')).toHaveLength(1);
    db.exec('COMMIT');
    expect(readRows({ db: path, sql: SQL, params: ['s1'], version: 2 }).toString().trim().split('\n')).toHaveLength(2);
    expect(() => readRows({ db: path, sql: "INSERT INTO secret VALUES ('x') RETURNING value AS data", version: 0 })).toThrow(/readonly|read-only/i);
    expect(db.prepare('SELECT count(*) AS n FROM secret').get()).toEqual({ n: 0 });
  });

  it('names the database and the reason when it cannot be read', () => {
    const missing = join(tempDir('hs-rows-'), 'none.db');
    expect(() => readRows({ db: missing, sql: 'SELECT 1 AS data', version: 0 })).toThrow(RowSourceError);
    expect(() => readRows({ db: missing, sql: 'SELECT 1 AS data', version: 0 })).toThrow(missing);
    expect(existsSync(missing)).toBe(false);
    const { path } = makeDb();
    expect(() => readRows({ db: path, sql: 'SELECT data FROM nowhere', version: 0 })).toThrow(/no such table: nowhere/);
  });
});

describe('statRows', () => {
  it('reads and holds the rows for the line reader, unless the stored version is current', () => {
    const { path, db } = makeDb();
    db.prepare('INSERT INTO message VALUES (?, ?, ?, ?)').run('m1', 's1', 1, '{"a":1}');
    const source: SourceFile & { rows: NonNullable<SourceFile['rows']> } = {
      path: `${path}/rows/s1.jsonl`,
      root: path,
      relPath: 'rows/s1.jsonl',
      ledger: 'messages',
      ledgerRank: 0,
      kind: 'jsonl',
      rows: { db: path, sql: SQL, params: ['s1'], version: 7 },
    };
    const first = statRows(source, null);
    expect(first.mtimeMs).toBe(7);
    expect(heldBytes(source.path)?.length).toBe(first.size);
    const lines = [...readLines(source.path)];
    expect(lines.map((l) => [l.lineNumber, l.offset, l.complete])).toEqual([[1, 0, true]]);
    expect(JSON.parse(lines[0]!.bytes.toString())).toMatchObject({ id: 'm1', data: { a: 1 } });
    releaseBytes(source.path);
    expect(heldBytes(source.path)).toBeUndefined();
    // Same version as stored: the stored size stands and nothing is read.
    db.exec('DROP TABLE message');
    expect(statRows(source, { size: first.size, mtimeMs: 7 })).toEqual({ size: first.size, mtimeMs: 7 });
    expect(heldBytes(source.path)).toBeUndefined();
  });
});

describe('held bytes read as lines', () => {
  it('splits as a file is read: from an offset, up to an end, the last line incomplete without its newline', () => {
    const path = '/nowhere/held.jsonl';
    holdBytes(path, Buffer.from('{"a":1}\n{"b":2}\n{"c":'));
    const all = [...readLines(path)].map((l) => [l.lineNumber, l.offset, l.bytes.toString(), l.complete]);
    expect(all).toEqual([[1, 0, '{"a":1}', true], [2, 8, '{"b":2}', true], [3, 16, '{"c":', false]]);
    const resumed = [...readLines(path, { offset: 8, lineNumber: 2, end: 16 })].map((l) => [l.lineNumber, l.bytes.toString(), l.complete]);
    expect(resumed).toEqual([[2, '{"b":2}', true]]);
    expect([...readLines(path, { offset: 8, lineNumber: 2, end: 12 })].map((l) => l.complete)).toEqual([false]);
    releaseBytes(path);
    expect(() => [...readLines(path)]).toThrow(/ENOENT/);
  });
});
