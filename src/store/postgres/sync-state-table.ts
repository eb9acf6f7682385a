// Sync's memory in a PostgreSQL store: one row of the table `sync_state` in the store's schema,
// created on first write (the engine's migrations stay untouched, and reading a store that never
// synced changes nothing).

import type { SyncStateSlot } from '../store.js';
import type { Queryable } from './query.js';

// Two processes creating the table at once can collide on the catalog even with IF NOT EXISTS.
const ALREADY_THERE = new Set(['42P07', '23505']);

export function syncStateTable(db: Queryable): SyncStateSlot {
  return {
    async read() {
      const { rows } = await db.query<{ ok: boolean }>("SELECT to_regclass('sync_state') IS NOT NULL AS ok");
      if (!rows[0]?.ok) return null;
      return (await db.query<{ state: string }>('SELECT state FROM sync_state WHERE id = 1')).rows[0]?.state ?? null;
    },
    async write(text) {
      try {
        await db.query('CREATE TABLE IF NOT EXISTS sync_state (id smallint PRIMARY KEY CHECK (id = 1), state text NOT NULL)');
      } catch (err) {
        if (!ALREADY_THERE.has((err as { code?: string }).code ?? '')) throw err;
      }
      await db.query('INSERT INTO sync_state (id, state) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state', [text]);
    },
  };
}
