// The store totals of a ProjectScope, counted over the scope's own files, sessions and findings
// (project-scope.ts) rather than the whole store's (which would tell a team token how much other
// projects hold). The engine selects the scope's rows, a few narrow columns each; they are summed
// here, which costs less than summing each figure in its own subquery over them.

import type { ProjectScope, StoreTotals } from '../store.js';
import { bindScope, defectInScope, fileInScope, projectInScope } from './project-scope.js';
import { binder } from './search.js';
import { first, type Sql } from './sql.js';

const CHAIN_BREAKS = new Set(['hash_mismatch', 'previous_hash_mismatch']);

/**
 * Totals over what the scope sees. Files count live ones, lines count every generation, roots are
 * those of the scope's files; a format's sessions are counted where the scope has live files of it.
 * `storedEvidenceBytes` is not kept per file: it is the whole store's compression ratio applied to
 * the scope's bytes.
 */
export async function readScopeTotals(sql: Sql, projects: ProjectScope): Promise<StoreTotals> {
  const params: unknown[] = [];
  const scope = await bindScope(sql, projects, binder(params));
  const [files, defects, events, whole] = await Promise.all([
    sql.arrays(`SELECT f.root_id, f.format, f.superseded, f.size, f.lines FROM files f WHERE ${fileInScope(sql, 'f', scope)}`, params),
    sql.arrays(`SELECT d.root_id, d.rel_path, d.line, d.severity, d.kind FROM defects d WHERE ${defectInScope(sql, 'd', scope)}`, params),
    first<{ n: number | null }>(sql, `SELECT sum(event_count) AS n FROM sessions WHERE ${projectInScope(sql, 'project', '$1')}`, [projects]),
    first<{ bytes: number | null; stored: number | null }>(
      sql,
      `SELECT (SELECT sum(size) FROM files WHERE superseded = 0) AS bytes, (SELECT sum(${sql.dialect.blobLength('data')}) FROM blocks) AS stored`,
    ),
  ]);
  const byFormat: StoreTotals['byFormat'] = {};
  let [live, bytes, lines] = [0, 0, 0];
  for (const [, format, superseded, size, fileLines] of files as [number, string, number | boolean, number, number][]) {
    lines += Number(fileLines);
    if (superseded === 1 || superseded === true) continue;
    live += 1;
    bytes += Number(size);
    const entry = (byFormat[format] ??= { files: 0, sessions: 0, bytes: 0, lines: 0 });
    entry.files += 1;
    entry.bytes += Number(size);
    entry.lines += Number(fileLines);
  }
  for (const s of scope.sessions) {
    const entry = byFormat[s.format];
    if (entry) entry.sessions += 1;
  }
  const [wholeBytes, wholeStored] = [Number(whole?.bytes ?? 0), Number(whole?.stored ?? 0)];
  const errorLines = new Set(defects.filter((d) => d[3] === 'error' && d[2] !== null).map((d) => `${d[0]}\0${d[1]}\0${d[2]}`));
  return {
    roots: new Set(files.map((f) => f[0])).size,
    files: live,
    sessions: scope.sessions.length,
    events: Number(events?.n ?? 0),
    lines,
    badLines: errorLines.size,
    bytes,
    storedEvidenceBytes: wholeBytes > 0 ? Math.round((wholeStored * bytes) / wholeBytes) : 0,
    rewrites: defects.filter((d) => d[4] === 'rewritten_source').length,
    chainBreaks: defects.filter((d) => CHAIN_BREAKS.has(d[4] as string)).length,
    byFormat: Object.fromEntries(Object.entries(byFormat).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}
