// The token table of a store, whichever engine holds it.

import { PostgresStore } from '../../../store/postgres/postgres-store.js';
import { retryingReads } from '../../../store/postgres/query.js';
import { SqliteStore } from '../../../store/sqlite/sqlite-store.js';
import type { Store } from '../../../store/store.js';
import { PostgresTokens } from './postgres-tokens.js';
import { SqliteTokens } from './sqlite-tokens.js';
import type { TokenStore } from './token-store.js';

/**
 * The TokenStore kept in `store` (its SQLite file or its PostgreSQL schema).
 *
 * @example const tokens = tokenStoreFor(await openStore({ db: 'postgres://…?schema=team' }));
 */
export function tokenStoreFor(store: Store): TokenStore {
  if (store instanceof SqliteStore) return new SqliteTokens(store.db);
  // Transient failures are retried as the engine's own reads are; a server that stays away is
  // STORE_UNAVAILABLE (503), as for any tool.
  if (store instanceof PostgresStore) return new PostgresTokens(retryingReads(store.pool, store.location));
  throw new Error(`Team tokens are kept in a SQLite or PostgreSQL store; ${store.location} is neither.`);
}
