// What was ingested, as the `sources` tool and ingest summaries report it: files, defects and
// store totals from PostgreSQL, in the same order and shapes as the SQLite engine.

import { defectFromRow, sourceFileFromRow, type DefectRowDb, type SourceFileRowDb } from '../shared/report-rows.js';
import type { DefectQuery, DefectRow, SourceFileRow, StoreTotals } from '../store.js';
import type { Queryable } from './query.js';

export async function listFiles(db: Queryable, options: { limit: number; offset: number }): Promise<{ total: number; files: SourceFileRow[] }> {
  const { rows: count } = await db.query<{ n: number }>('SELECT count(*) AS n FROM files');
  const { rows } = await db.query<SourceFileRowDb>(
    `SELECT r.path AS root, f.rel_path, f.format, f.ledger, f.session_id, f.generation, f.superseded,
     f.superseded_reason, f.size, f.lines, f.bad_lines, f.events FROM files f JOIN roots r ON r.id = f.root_id
     ORDER BY r.path, f.rel_path, f.generation LIMIT $1 OFFSET $2`,
    [options.limit, options.offset],
  );
  return { total: count[0]!.n, files: rows.map(sourceFileFromRow) };
}

export async function listDefects(db: Queryable, q: DefectQuery): Promise<{ total: number; defects: DefectRow[] }> {
  const params: unknown[] = [];
  const conds: string[] = [];
  for (const [col, value] of [
    ['d.severity', q.severity],
    ['d.kind', q.kind],
    ['d.session_id', q.sessionId],
  ] as const) {
    if (value === undefined) continue;
    params.push(value);
    conds.push(`${col} = $${params.length}`);
  }
  const clause = conds.length ? `WHERE ${conds.join(' AND ')}` : '';
  const { rows: count } = await db.query<{ n: number }>(`SELECT count(*) AS n FROM defects d ${clause}`, params);
  // d.id last: SQLite returns ties in insertion order, which is id order here.
  const { rows } = await db.query<DefectRowDb>(
    `SELECT r.path AS root, d.rel_path, d.line, d.severity, d.kind, d.message, d.session_id FROM defects d
     JOIN roots r ON r.id = d.root_id ${clause}
     ORDER BY r.path, d.rel_path, coalesce(d.line, 0), d.kind, d.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, q.limit, q.offset],
  );
  return { total: count[0]!.n, defects: rows.map(defectFromRow) };
}

export async function readTotals(db: Queryable): Promise<StoreTotals> {
  const { rows: byFormatRows } = await db.query<{ format: string; files: number; bytes: number | null; lines: number | null; sessions: number }>(
    `SELECT f.format, count(*) AS files, sum(f.size) AS bytes, sum(f.lines) AS lines,
     (SELECT count(*) FROM sessions s WHERE s.format = f.format) AS sessions
     FROM files f WHERE f.superseded = 0 GROUP BY f.format ORDER BY f.format`,
  );
  const byFormat: StoreTotals['byFormat'] = {};
  for (const r of byFormatRows) byFormat[r.format] = { files: r.files, sessions: r.sessions, bytes: r.bytes ?? 0, lines: r.lines ?? 0 };
  const { rows } = await db.query<Record<string, number | null>>(
    `SELECT (SELECT count(*) FROM roots) AS roots,
      (SELECT count(*) FROM files WHERE superseded = 0) AS files,
      (SELECT count(*) FROM sessions) AS sessions,
      (SELECT count(*) FROM events) AS events,
      (SELECT sum(lines) FROM files) AS lines,
      (SELECT count(*) FROM (SELECT DISTINCT root_id, rel_path, line FROM defects WHERE severity = 'error' AND line IS NOT NULL) x) AS bad_lines,
      (SELECT sum(size) FROM files WHERE superseded = 0) AS bytes,
      (SELECT sum(octet_length(data)) FROM blocks) AS stored,
      (SELECT count(*) FROM defects WHERE kind = 'rewritten_source') AS rewrites,
      (SELECT count(*) FROM defects WHERE kind IN ('hash_mismatch', 'previous_hash_mismatch')) AS chain_breaks`,
  );
  const t = rows[0]!;
  return {
    roots: t.roots ?? 0,
    files: t.files ?? 0,
    sessions: t.sessions ?? 0,
    events: t.events ?? 0,
    lines: t.lines ?? 0,
    badLines: t.bad_lines ?? 0,
    bytes: t.bytes ?? 0,
    storedEvidenceBytes: t.stored ?? 0,
    rewrites: t.rewrites ?? 0,
    chainBreaks: t.chain_breaks ?? 0,
    byFormat,
  };
}
