// The store totals of a scope, computed from its own files, sessions and findings rather than the
// engine's whole-store sums (which would tell a token how much other projects hold).

import type { DefectRow, SessionRow, SourceFileRow, StoreTotals } from '../../../store/store.js';

const CHAIN_BREAKS = new Set(['hash_mismatch', 'previous_hash_mismatch']);

/**
 * Totals over what a scope may see. `storedEvidenceBytes` is not known per file through the Store
 * interface: it is the whole store's compression ratio applied to the scope's bytes.
 */
export function scopedTotals(
  whole: StoreTotals,
  files: SourceFileRow[],
  sessions: SessionRow[],
  defects: DefectRow[],
): StoreTotals {
  const live = files.filter((f) => !f.superseded);
  const bytes = live.reduce((n, f) => n + f.size, 0);
  const byFormat: StoreTotals['byFormat'] = {};
  for (const f of live) {
    const entry = (byFormat[f.format] ??= { files: 0, sessions: 0, bytes: 0, lines: 0 });
    entry.files += 1;
    entry.bytes += f.size;
    entry.lines += f.lines;
  }
  for (const s of sessions) {
    const entry = byFormat[s.format];
    if (entry) entry.sessions += 1;
  }
  const badLines = new Set(
    defects.filter((d) => d.severity === 'error' && d.line !== null).map((d) => `${d.root}\0${d.file}\0${d.line}`),
  ).size;
  return {
    roots: new Set(files.map((f) => f.root)).size,
    files: live.length,
    sessions: sessions.length,
    events: sessions.reduce((n, s) => n + s.eventCount, 0),
    lines: files.reduce((n, f) => n + f.lines, 0),
    badLines,
    bytes,
    storedEvidenceBytes: whole.bytes > 0 ? Math.round((whole.storedEvidenceBytes * bytes) / whole.bytes) : 0,
    rewrites: defects.filter((d) => d.kind === 'rewritten_source').length,
    chainBreaks: defects.filter((d) => CHAIN_BREAKS.has(d.kind)).length,
    byFormat: Object.fromEntries(Object.entries(byFormat).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}
