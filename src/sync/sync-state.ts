// The local side's memory of sync, kept with the store (Store.syncState: `<db>.sync.json` beside a
// SQLite store, a table in a PostgreSQL one): when it last pushed and pulled, which sessions it
// pushed (at what sequence), and which folders hold pulled copies.

import type { Store } from '../store/store.js';

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

export function emptyRemoteState(): RemoteState {
  return { last_push: null, last_pull: null, pushed: {}, pulled_roots: {} };
}

/** The state kept with a store, or an empty one (a missing or unreadable document means nothing was synced yet). */
export async function readSyncState(store: Store): Promise<SyncState> {
  return parseSyncState(await store.syncState().read());
}

/** The state a slot's document holds (null: nothing written yet), or an empty one. */
export function parseSyncState(text: string | null): SyncState {
  try {
    const parsed = JSON.parse(text ?? 'null') as SyncState | null;
    if (parsed && parsed.version === 1 && parsed.remotes && typeof parsed.remotes === 'object') return parsed;
  } catch {
    // A damaged document: start over (the remote holds the truth; the next sync rebuilds this).
  }
  return { version: 1, remotes: {} };
}

/** Update one remote's entry (the store writes the document whole, so a crash never leaves half of it). */
export async function updateSyncState(store: Store, remote: string, change: (s: RemoteState) => void): Promise<void> {
  const state = await readSyncState(store);
  const entry = { ...emptyRemoteState(), ...(state.remotes[remote] ?? {}) };
  change(entry);
  state.remotes[remote] = entry;
  await store.syncState().write(`${JSON.stringify(state)}\n`);
}

/** Every folder of pulled copies, and every session key pushed, whatever the remote (list_sessions' `source`). */
export async function syncedSets(store: Store): Promise<{ pulledRoots: Set<string>; pushed: Set<string>; any: boolean }> {
  return syncedSetsOf(await readSyncState(store));
}

/** syncedSets of a state already read. */
export function syncedSetsOf(state: SyncState): { pulledRoots: Set<string>; pushed: Set<string>; any: boolean } {
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
