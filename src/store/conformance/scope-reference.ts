// Test helper: the answers of a ProjectScope (store.ts) computed in memory from the whole store's
// unscoped reads, rule by rule, as the scoped view computed them before the engine filtered: what
// the engine's project filters and a scoped store's pages must equal.

import type { DefectRow, SessionRow, SourceFileRow, Store, StoreTotals } from '../store.js';

const ALL = { limit: 100_000, offset: 0 };
const CHAIN_BREAKS = new Set(['hash_mismatch', 'previous_hash_mismatch']);

export interface ScopeReference {
  sessions: SessionRow[];
  files: SourceFileRow[];
  defects: DefectRow[];
  totals: StoreTotals;
}

/**
 * Every session, file and finding of the scope of `projects`, and its totals. `sharedRoots`: the
 * roots whose files are shared ledgers (Control Plane), said by the test rather than asked of the
 * code under test.
 */
export async function scopeReference(store: Store, projects: readonly string[], sharedRoots: readonly string[]): Promise<ScopeReference> {
  const roots = new Set(sharedRoots.filter((r) => projects.includes(r)));
  const sessions = (await store.listSessions(ALL)).sessions.filter((s) => s.project !== null && projects.includes(s.project));
  const ids = new Set(sessions.map((s) => s.id));
  const files = (await store.listFiles(ALL)).files.filter((f) => (f.sessionId !== null ? ids.has(f.sessionId) : roots.has(f.root)));
  const fileKeys = new Set(files.map((f) => `${f.root}\0${f.file}`));
  const defects = (await store.listDefects(ALL)).defects.filter((d) =>
    d.sessionId ? ids.has(d.sessionId) : roots.has(d.root) || (d.file !== '' && fileKeys.has(`${d.root}\0${d.file}`)),
  );
  return { sessions, files, defects, totals: totalsOf(await store.totals(), files, sessions, defects) };
}

function totalsOf(whole: StoreTotals, files: SourceFileRow[], sessions: SessionRow[], defects: DefectRow[]): StoreTotals {
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
  return {
    roots: new Set(files.map((f) => f.root)).size,
    files: live.length,
    sessions: sessions.length,
    events: sessions.reduce((n, s) => n + s.eventCount, 0),
    lines: files.reduce((n, f) => n + f.lines, 0),
    badLines: new Set(defects.filter((d) => d.severity === 'error' && d.line !== null).map((d) => `${d.root}\0${d.file}\0${d.line}`)).size,
    bytes,
    storedEvidenceBytes: whole.bytes > 0 ? Math.round((whole.storedEvidenceBytes * bytes) / whole.bytes) : 0,
    rewrites: defects.filter((d) => d.kind === 'rewritten_source').length,
    chainBreaks: defects.filter((d) => CHAIN_BREAKS.has(d.kind)).length,
    byFormat: Object.fromEntries(Object.entries(byFormat).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}
