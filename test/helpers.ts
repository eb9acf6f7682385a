// Shared test helpers: temp folders, a path-independent fingerprint of a store, the built CLI.

import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { unpackLines } from '../src/store/sqlite/line-index.js';
import type { SqliteStore } from '../src/store/sqlite/sqlite-store.js';

export const REPO = resolve(import.meta.dirname, '..');
export const FIXTURES = resolve(REPO, '..', 'shared', 'fixtures');
export const BIN = join(REPO, 'bin', 'hindsight');

export function tempDir(prefix = 'hs-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Copy a read-only fixture into a temp folder (tests never mutate ../shared). */
export function copyFixture(rel: string): string {
  const dest = join(tempDir('hs-fixture-'), rel.split('/').pop()!);
  cpSync(join(FIXTURES, rel), dest, { recursive: true });
  return dest;
}

/**
 * Everything a store holds that must be identical between two ingests of the same data, with
 * root paths left out so that two temp folders compare equal.
 */
export function fingerprint(store: SqliteStore): string {
  const db = store.db;
  const sessions = db
    .prepare(
      `SELECT id, format, project, parent_id, kind, title, status, started_at, ended_at, turn_count, first_user_message,
       last_response_preview, models, own_input, own_output, own_cache_write, own_cache_read, own_reasoning, total_input, total_output,
       total_cache_write, total_cache_read, total_reasoning, llm_calls, event_count, tool_calls, tool_errors, errors, warnings, compactions,
       attrs, next_seq, dirty FROM sessions ORDER BY id`,
    )
    .all();
  const events = db
    .prepare(
      `SELECT s.id AS session, e.seq, f.rel_path, f.generation, e.line_number, e.part, e.ts_ms, e.ts_ns, e.type, e.kind, e.actor,
       e.turn, e.usage_key, e.tok_in, e.tok_out, e.tok_cw, e.tok_cr, e.tok_rs, e.tool_name, e.tool_status, e.summary, e.attrs
       FROM events e JOIN sessions s ON s.sid = e.sid JOIN files f ON f.id = e.file_id ORDER BY s.id, e.seq`,
    )
    .all();
  // Per line, not per block: block boundaries depend on when each ingest ran, lines do not.
  const lines = (
    db
      .prepare(
        `SELECT f.rel_path, f.generation, b.first_line, b.first_offset, b.line_index FROM blocks b
         JOIN files f ON f.id = b.file_id ORDER BY f.rel_path, f.generation, b.first_line`,
      )
      .all() as { rel_path: string; generation: number; first_line: number; first_offset: number; line_index: Buffer }[]
  ).flatMap((b) =>
    unpackLines(b.line_index, b.first_line, b.first_offset).map(
      (l) => `${b.rel_path}#${b.generation}:${l.lineNumber}@${l.offset}+${l.length} ${l.status} ${l.hash.toString('hex')}`,
    ),
  );
  const defects = db
    .prepare('SELECT rel_path, line, severity, kind, message, session_id FROM defects ORDER BY rel_path, line, kind, message')
    .all();
  const files = db
    .prepare(
      `SELECT rel_path, generation, superseded, offset, next_line, lines, bad_lines, events FROM files ORDER BY rel_path, generation`,
    )
    .all();
  const fts = db.prepare('SELECT count(*) AS n FROM message_fts').get();
  const usage = db
    .prepare(
      `SELECT s.id, u.ts_ms, u.ts_ns, u.seq, u.model, u.tok_in, u.tok_out, u.tok_cw, u.tok_cw1h, u.tok_cr, u.tok_rs, u.cost
       FROM usage_calls u JOIN sessions s ON s.sid = u.sid ORDER BY s.id, u.seq`,
    )
    .all();
  return JSON.stringify({ sessions, events, lines, defects, files, fts, usage });
}

/**
 * Assert two stores hold the same data (their fingerprints), reporting only the first differing
 * section and item: a whole-fingerprint diff of a large store is megabytes, too big to report.
 */
export function expectSameStore(actual: SqliteStore, expected: SqliteStore): void {
  const a = JSON.parse(fingerprint(actual)) as Record<string, unknown>;
  const b = JSON.parse(fingerprint(expected)) as Record<string, unknown>;
  for (const section of Object.keys(b)) {
    const [x, y] = [a[section], b[section]];
    if (JSON.stringify(x) === JSON.stringify(y)) continue;
    if (Array.isArray(x) && Array.isArray(y)) {
      const i = x.findIndex((v, k) => JSON.stringify(v) !== JSON.stringify(y[k]));
      const at = i === -1 ? Math.min(x.length, y.length) : i;
      expect({ section, at, length: x.length, item: x[at] }).toEqual({ section, at, length: y.length, item: y[at] });
    }
    expect({ section, value: x }).toEqual({ section, value: y });
  }
}

/** Run the built CLI and SIGKILL it after `ms` (if it is still running): `killed` says whether it died mid-way. */
export function killAfter(args: string[], ms: number): Promise<{ killed: boolean; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: 'ignore' });
    let killed = false;
    const timer = setTimeout(() => {
      killed = child.kill('SIGKILL');
    }, ms);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ killed, code });
    });
  });
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, TZ: 'UTC', ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
}
