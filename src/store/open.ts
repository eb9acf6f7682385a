// Choosing and opening a store: `--db FILE|URL`, else $HINDSIGHT_DB, else the XDG data folder.
// A postgres:// or postgresql:// URL opens the PostgreSQL engine; anything else is a SQLite file.

import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { StoreOpenFailed } from '../core/errors.js';
import type { Store } from './store.js';
import { isPostgresUrl } from './postgres/url.js';
import { programName } from '../core/package-info.js';

/**
 * The database path design.md defines: $HINDSIGHT_DB, else $XDG_DATA_HOME/hindsight/hindsight.db,
 * else ~/.local/share/hindsight/hindsight.db.
 */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HINDSIGHT_DB) return isPostgresUrl(env.HINDSIGHT_DB) ? env.HINDSIGHT_DB : resolve(env.HINDSIGHT_DB);
  const dataHome = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(dataHome, programName(), `${programName()}.db`);
}

/**
 * Open the store at `db` (a file path or a PostgreSQL URL), or the default one.
 *
 * @example const store = await openStore({ db: '/tmp/h.db' });
 * @example const existing = await openStore({ db: '/tmp/h.db', mustExist: true }); // never creates it
 * @example const team = await openStore({ db: 'postgres://me@db.internal/hindsight?schema=team' });
 */
export async function openStore(options: { db?: string; env?: NodeJS.ProcessEnv; mustExist?: boolean } = {}): Promise<Store> {
  const target = options.db || defaultDbPath(options.env);
  // Read commands pass mustExist: a mistyped --db must not leave folders and an empty store
  // behind and answer "no sessions" from it. Only ingest (and the writers) create a store.
  if (options.mustExist && !isPostgresUrl(target) && target !== ':memory:' && !existsSync(target)) {
    throw StoreOpenFailed(resolve(target), 'no store exists there; only hindsight ingest creates one — check the path, or ingest first');
  }
  // Each engine is loaded when first opened: a SQLite user never loads pg, a PostgreSQL user
  // never loads better-sqlite3, and commands that open no store load neither.
  if (isPostgresUrl(target)) {
    const { PostgresStore } = await import('./postgres/postgres-store.js');
    return PostgresStore.open(target);
  }
  const { SqliteStore } = await import('./sqlite/sqlite-store.js');
  return new SqliteStore(resolve(target));
}
