// Sync's memory in a PostgreSQL store: one row of the table `sync_state` in the store's schema,
// created on first write (the engine's migrations stay untouched, and reading a store that never
// synced changes nothing).

import type { SyncStateSlot } from '../store.js';
import { createTable, first, tableExists, type Sql } from '../core/sql.js';

export function syncStateTable(sql: Sql): SyncStateSlot {
  return {
    async read() {
      if (!(await tableExists(sql, 'sync_state'))) return null;
      return (await first<{ state: string }>(sql, 'SELECT state FROM sync_state WHERE id = 1'))?.state ?? null;
    },
    async write(text) {
      await createTable(sql, 'CREATE TABLE IF NOT EXISTS sync_state (id smallint PRIMARY KEY CHECK (id = 1), state text NOT NULL)');
      await sql.run('INSERT INTO sync_state (id, state) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state', [text]);
    },
  };
}
