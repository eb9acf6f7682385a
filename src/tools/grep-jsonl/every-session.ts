// grep over every session of every format (scope "all"): which ledger files to read, which session
// each file (or, in a Control Plane ledger shared by all of a root's sessions, each line) belongs
// to, and which lines a session filter leaves. Filters: a session (id or unique prefix, with its
// sub-agents), format, project (substring) and since (sessions active on or after a UTC day).

import type { Format } from '../../core/model.js';
import { profilesOf } from '../../formats/registry.js';
import type { SessionRow, Store } from '../../store/store.js';
import type { LedgerFile } from '../ledger-address.js';
import { resolveSession } from '../session-ref.js';

const PAGE = 1000;

export interface EverySessionFilters {
  session_id?: string | undefined;
  format?: Format | undefined;
  project?: string | undefined;
  /** YYYY-MM-DD (UTC): sessions that ended (or, still open, started) on or after it. */
  since?: string | undefined;
}

export interface GrepFile extends LedgerFile {
  ledger: string;
  format: Format;
  /** The file's session; null for a Control Plane ledger (lineSessions says per line). */
  sessionId: string | null;
}

export interface EverySession {
  files: GrepFile[];
  /** Control Plane files: the session of each line that has one. */
  lineSessions: Map<number, Map<number, string | null>>;
  /** Files limited to some lines (a Control Plane ledger under a session filter); other files are read whole. */
  only: Map<number, number[]>;
  sessions: number;
}

function matchesFilters(s: SessionRow, f: EverySessionFilters): boolean {
  if (f.project !== undefined) {
    const needle = f.project.toLowerCase();
    if (!(s.project ?? '').toLowerCase().includes(needle) && !(s.projectPath ?? '').toLowerCase().includes(needle)) return false;
  }
  if (f.since !== undefined) {
    const last = s.endedAt ?? s.startedAt;
    if (last === null || last.slice(0, 10) < f.since) return false;
  }
  return true;
}

async function chosenSessions(store: Store, f: EverySessionFilters): Promise<SessionRow[]> {
  if (f.session_id !== undefined) {
    const root = await resolveSession(store, f.session_id);
    const below = await store.sessionDescendants(root.id);
    const rows = [root];
    for (const id of below) {
      const s = await store.getSession(id);
      if (s) rows.push(s);
    }
    return rows.filter((s) => (f.format === undefined || s.format === f.format) && matchesFilters(s, f));
  }
  const out: SessionRow[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const { total, sessions } = await store.listSessions({ format: f.format, limit: PAGE, offset });
    for (const s of sessions) if (matchesFilters(s, f)) out.push(s);
    if (sessions.length === 0 || offset + sessions.length >= total) return out;
  }
}

/** Every Control Plane entry's session, per file and line. */
async function entrySessions(store: Store, fileId: number): Promise<Map<number, string | null>> {
  const lines = new Map<number, string | null>();
  for (let offset = 0; ; offset += 10_000) {
    const { total, entries } = await store.ledgerEntries({ fileIds: [fileId], offset, limit: 10_000 });
    for (const e of entries) if (!lines.has(e.lineNumber)) lines.set(e.lineNumber, e.sessionId);
    if (entries.length === 0 || offset + entries.length >= total) return lines;
  }
}

/**
 * Without any filter, when every file of every root names its session (discovery named one for
 * each, as for Claude Code), each file is that session's: the same files and owners the
 * session-by-session walk below finds, from three reads instead of two per session (that walk
 * cost ~0.5 s on 930 sessions, twice what ripgrep takes to search them). null: walk.
 */
async function everyFileNamed(store: Store): Promise<EverySession | null> {
  if (!store.sessionTallies) return null;
  const formatOf = new Map((await store.sessionTallies()).map((s) => [s.id, s.format]));
  const files: GrepFile[] = [];
  for (const root of await store.listRoots()) {
    for (const l of await store.rootLedgers(root.path)) {
      for (const f of l.files) {
        const format = f.sessionId === null ? undefined : formatOf.get(f.sessionId);
        if (format === undefined) return null; // a file of many sessions, or of none: walk
        if (f.superseded) continue;
        files.push({
          fileId: f.fileId, file: f.relPath, lines: f.lines, path: f.path, size: f.size, mtimeMs: f.mtimeMs, offset: f.offset,
          ledger: l.ledger, format, sessionId: f.sessionId,
        });
      }
    }
  }
  const profiles = await profilesOf([...new Set(files.map((f) => f.format))]);
  if (files.some((f) => profiles.get(f.format)?.sharedLedgers != null)) return null; // lines name their sessions: walk
  files.sort((a, b) => cmp(a.sessionId!, b.sessionId!) || a.fileId - b.fileId);
  return { files, lineSessions: new Map(), only: new Map(), sessions: formatOf.size };
}

/** Files and line limits for a search of every session the filters leave, in a stable order (session id, then reading order). */
export async function everySessionFiles(store: Store, filters: EverySessionFilters): Promise<EverySession> {
  const unfiltered = filters.session_id === undefined && filters.format === undefined && filters.project === undefined && filters.since === undefined;
  const quick = unfiltered ? await everyFileNamed(store) : null;
  if (quick) return quick;
  const sessions = await chosenSessions(store, filters);
  const narrowed = filters.session_id !== undefined || filters.project !== undefined || filters.since !== undefined;
  const chosen = new Set(sessions.map((s) => s.id));
  const profiles = await profilesOf(sessions.map((s) => s.format));
  // Ledgers shared by every session of a root name each line's session; other files have one.
  const shared = (format: string): boolean => profiles.get(format)?.sharedLedgers != null;
  const byFile = new Map<number, GrepFile>();
  // A file belongs to the session discovery named for it (a sub-agent's file, which its parent
  // lists too, is the sub-agent's); a file that names none of the chosen sessions belongs to the
  // outermost session listing it (an inline sidechain lists its parent's transcript).
  for (const s of [...sessions].sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : 1))) {
    for (const l of await store.sessionLedgers(s.id)) {
      for (const f of l.files) {
        const ownAgentFile = f.sessionId === s.id;
        if (f.superseded || (byFile.has(f.fileId) && !ownAgentFile)) continue;
        byFile.set(f.fileId, {
          fileId: f.fileId, file: f.relPath, lines: f.lines, path: f.path, size: f.size, mtimeMs: f.mtimeMs, offset: f.offset,
          ledger: l.ledger, format: s.format, sessionId: shared(s.format) ? null : s.id,
        });
      }
    }
  }
  const files = [...byFile.values()].sort((a, b) => cmp(a.sessionId ?? '', b.sessionId ?? '') || a.fileId - b.fileId);
  const lineSessions = new Map<number, Map<number, string | null>>();
  const only = new Map<number, number[]>();
  for (const f of files) {
    if (!shared(f.format)) continue;
    const lines = await entrySessions(store, f.fileId);
    lineSessions.set(f.fileId, lines);
    if (narrowed) only.set(f.fileId, [...lines].filter(([, sid]) => sid !== null && chosen.has(sid)).map(([line]) => line).sort((a, b) => a - b));
  }
  return { files, lineSessions, only, sessions: sessions.length };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
