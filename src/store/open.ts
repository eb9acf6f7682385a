// Choosing and opening a store: `--db FILE`, else $HINDSIGHT_DB, else the XDG data folder.

import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Store } from './store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';

/**
 * The database path design.md defines: $HINDSIGHT_DB, else $XDG_DATA_HOME/hindsight/hindsight.db,
 * else ~/.local/share/hindsight/hindsight.db.
 */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HINDSIGHT_DB) return resolve(env.HINDSIGHT_DB);
  const dataHome = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(dataHome, 'hindsight', 'hindsight.db');
}

/**
 * Open the store at `db` (a file path), or the default one.
 *
 * @example const store = await openStore({ db: '/tmp/h.db' });
 */
export async function openStore(options: { db?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Store> {
  const location = options.db ? resolve(options.db) : defaultDbPath(options.env);
  return new SqliteStore(location);
}
