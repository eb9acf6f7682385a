// Where a listed session's data lives, from the local sync state alone (no network): `cloud` for a
// copy pulled from another machine, `both` for a session this machine pushed, `local` otherwise.

import type { SessionRow, Store } from '../store/store.js';
import { resolveRemote } from './identity.js';
import { sessionKey, syncedSets } from './sync-state.js';

export type SessionSource = 'local' | 'cloud' | 'both';

export interface SourceLens {
  /** A remote is configured (the default of list_sessions' include_cloud). */
  remoteConfigured: boolean;
  pulledRoots: Set<string>;
  sourceOf(row: SessionRow): SessionSource;
}

export function sourceLens(store: Store, env: NodeJS.ProcessEnv = process.env): SourceLens {
  const remoteConfigured = resolveRemote(undefined, env) !== null;
  if (store.engine !== 'sqlite') return { remoteConfigured, pulledRoots: new Set(), sourceOf: () => 'local' };
  const { pulledRoots, pushed } = syncedSets(store.location);
  return {
    remoteConfigured,
    pulledRoots,
    sourceOf: (row) => (row.root !== null && pulledRoots.has(row.root) ? 'cloud' : pushed.has(sessionKey(row.id)) ? 'both' : 'local'),
  };
}
