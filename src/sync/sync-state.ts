// The local side's memory of sync, kept beside the SQLite store (`<db>.sync.json`): when it last
// pushed and pulled, which sessions it pushed (at what sequence), and which folders hold pulled copies.

import { readFileSync, renameSync, writeFileSync } from 'node:fs';

export interface RemoteState {
  last_push: string | null;
  last_pull: string | null;
  /** Session key → local sequence (evidence lines) when it was last pushed. */
  pushed: Record<string, number>;
  /** Local folders holding other machines' sessions, with the machine each came from. */
  pulled_roots: Record<string, string>;
}

export interface SyncState {
  version: 1;
  /** By remote location (the URL without its password). */
  remotes: Record<string, RemoteState>;
}

export function stateFile(dbPath: string): string {
  return `${dbPath}.sync.json`;
}

export function emptyRemoteState(): RemoteState {
  return { last_push: null, last_pull: null, pushed: {}, pulled_roots: {} };
}

/** The state beside a store, or an empty one (a missing or unreadable file means nothing was synced yet). */
export function readSyncState(dbPath: string): SyncState {
  try {
    const parsed = JSON.parse(readFileSync(stateFile(dbPath), 'utf8')) as SyncState;
    if (parsed && parsed.version === 1 && parsed.remotes && typeof parsed.remotes === 'object') return parsed;
  } catch {
    // First sync, or a damaged file: start over (the remote holds the truth; the next sync rebuilds this).
  }
  return { version: 1, remotes: {} };
}

/** Update one remote's entry; written to a temporary file then renamed, so a crash never leaves half a file. */
export function updateSyncState(dbPath: string, remote: string, change: (s: RemoteState) => void): void {
  const state = readSyncState(dbPath);
  const entry = { ...emptyRemoteState(), ...(state.remotes[remote] ?? {}) };
  change(entry);
  state.remotes[remote] = entry;
  const tmp = `${stateFile(dbPath)}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state)}\n`);
  renameSync(tmp, stateFile(dbPath));
}

/** Every folder of pulled copies, and every session key pushed, whatever the remote (list_sessions' `source`). */
export function syncedSets(dbPath: string): { pulledRoots: Set<string>; pushed: Set<string>; any: boolean } {
  const state = readSyncState(dbPath);
  const pulledRoots = new Set<string>();
  const pushed = new Set<string>();
  for (const r of Object.values(state.remotes)) {
    for (const p of Object.keys(r.pulled_roots ?? {})) pulledRoots.add(p);
    for (const k of Object.keys(r.pushed ?? {})) pushed.add(k);
  }
  return { pulledRoots, pushed, any: Object.keys(state.remotes).length > 0 };
}

/** The sync key of a session: its top-level id (a Claude Code sub-agent `<parent>:<agent>` travels with its parent). */
export function sessionKey(sessionId: string): string {
  const i = sessionId.indexOf(':');
  return i < 0 ? sessionId : sessionId.slice(0, i);
}
