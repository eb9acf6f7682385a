// Where a listed session's data lives, from the store's sync state alone (no network, either
// engine): `cloud` for a copy pulled from another machine, `both` for a session this machine
// pushed, `local` otherwise.

import type { SessionRow, Store } from '../store/store.js';
import { resolveRemote } from './identity.js';
import { parseSyncState, sessionKey, syncedSetsOf } from './sync-state.js';

export type SessionSource = 'local' | 'cloud' | 'both';

export interface SourceLens {
  /** A remote is configured (the default of list_sessions' include_cloud). */
  remoteConfigured: boolean;
  pulledRoots: Set<string>;
  sourceOf(row: SessionRow): SessionSource;
}

export async function sourceLens(store: Store, env: NodeJS.ProcessEnv = process.env): Promise<SourceLens> {
  return sourceLensOf(await store.syncState().read(), env);
}

/** sourceLens over a sync document already read (Store.listSessionsWithSyncState gives it with a listing). */
export function sourceLensOf(syncDocument: string | null, env: NodeJS.ProcessEnv = process.env): SourceLens {
  // Listing never fails over sync settings: a damaged config.json is reported by the sync commands.
  let remoteConfigured = false;
  try {
    remoteConfigured = resolveRemote(undefined, env) !== null;
  } catch {
    remoteConfigured = false;
  }
  const { pulledRoots, pushed } = syncedSetsOf(parseSyncState(syncDocument));
  return {
    remoteConfigured,
    pulledRoots,
    sourceOf: (row) => (row.root !== null && pulledRoots.has(row.root) ? 'cloud' : pushed.has(sessionKey(row.id)) ? 'both' : 'local'),
  };
}
