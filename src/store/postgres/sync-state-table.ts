// Sync's memory in a PostgreSQL store: one row of the table `sync_state` in the store's schema,
// created on first write (the engine's migrations stay untouched, and reading a store that never
// synced changes nothing).

import type { SyncStateSlot } from '../store.js';
import { createTable, first, tableExists, type Sql } from '../core/sql.js';

// undefined_table: the table went away after it was seen (its schema dropped and made again).
export const NO_TABLE = '42P01';

/** The slot, and what a listing statement that reads it too needs to know (postgres-store.ts). */
export interface PostgresSyncSlot extends SyncStateSlot {
  /**
   * An expression of no parameters for a statement that reads the slot beside other rows: the
   * document when the table was seen (`document: true`), else whether the table exists now.
   */
  column(): { sql: string; document: boolean };
  /** The table named by column() was not there (its schema dropped and made again): look it up again. */
  forget(): void;
}

export function syncStateTable(sql: Sql): PostgresSyncSlot {
  // Once seen, the table is assumed to stay: list_sessions reads this slot on every call, and one
  // round trip then does (a failed read instead of the catalog lookup costs the server an error
  // report, several times a lookup's time). Until then every read looks it up again: another
  // process may make it at any time (a first `hindsight sync pull`).
  let seen = false;
  return {
    column: () =>
      seen
        ? { sql: '(SELECT state FROM sync_state WHERE id = 1)', document: true }
        : { sql: "to_regclass('sync_state') IS NOT NULL", document: false },
    forget: () => {
      seen = false;
    },
    async read() {
      if (!seen && !(seen = await tableExists(sql, 'sync_state'))) return null;
      try {
        return (await first<{ state: string }>(sql, 'SELECT state FROM sync_state WHERE id = 1'))?.state ?? null;
      } catch (err) {
        if ((err as { code?: string }).code !== NO_TABLE) throw err;
        seen = false;
        return null;
      }
    },
    async write(text) {
      await createTable(sql, 'CREATE TABLE IF NOT EXISTS sync_state (id smallint PRIMARY KEY CHECK (id = 1), state text NOT NULL)');
      await sql.run('INSERT INTO sync_state (id, state) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state', [text]);
      seen = true;
    },
  };
}
