// Test support for sync: a fresh remote schema on the test server, simulated machines (a SQLite
// store, an identity and a cache folder each), and per-session event counts to compare stores.

import { join } from 'node:path';
import pg from 'pg';
import { TEST_PG_URL, dropSchema, uniqueSchema, withSchema } from '../store/conformance/engines.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import { findTool } from '../tools/registry.js';
import { runTool } from '../tools/tool.js';
import { tempDir } from '../../test/helpers.js';
import type { MachineIdentity } from './identity.js';
import type { SyncOptions } from './push.js';

export interface Machine {
  id: MachineIdentity;
  db: string;
  cacheDir: string;
  /** Environment for a child process playing this machine. */
  env: NodeJS.ProcessEnv;
  open(): SqliteStore;
  options(local: Store, remoteUrl: string): SyncOptions;
}

export function machine(name: string): Machine {
  const dir = tempDir(`hs-sync-${name}-`);
  const id = { machineId: name, user: `user-${name}`, host: `host-${name}` };
  const db = join(dir, 'store.db');
  const cacheDir = join(dir, 'cache', 'hindsight');
  return {
    id,
    db,
    cacheDir,
    env: { HINDSIGHT_MACHINE_ID: name, HINDSIGHT_USER: id.user, XDG_CACHE_HOME: join(dir, 'cache'), XDG_CONFIG_HOME: join(dir, 'config'), HINDSIGHT_REMOTE: '' },
    open: () => new SqliteStore(db),
    options: (local, remoteUrl) => ({ local, remoteUrl, identity: id, cacheDir }),
  };
}

export interface RemoteSchema {
  url: string;
  schema: string;
  drop(): Promise<void>;
}

export function remoteSchema(): RemoteSchema {
  const schema = uniqueSchema('hs_sync');
  return { url: withSchema(TEST_PG_URL, schema), schema, drop: () => dropSchema(schema) };
}

/** session id → event count, every session (sub-agents included), through list_sessions. */
export async function eventCounts(store: Store): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (let offset: number | null = 0; offset !== null; ) {
    const r = (await runTool(findTool('list_sessions')!, { top_level_only: false, limit: 500, offset, include_cloud: true, max_bytes: 1_000_000 }, { store })) as unknown as {
      sessions: { session_id: string; event_count: number }[];
      next_offset: number | null;
    };
    for (const s of r.sessions) out[s.session_id] = s.event_count;
    offset = r.next_offset;
  }
  return out;
}

/** Events and evidence lines the remote holds per session, read straight from its tables (duplicates would show). */
export async function remoteCounts(url: string, schema: string): Promise<{ events: Record<string, number>; lines: number }> {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  try {
    const ev = await client.query<{ id: string; n: string }>(`SELECT s.id, count(e.*) AS n FROM ${schema}.sessions s LEFT JOIN ${schema}.events e ON e.sid = s.sid GROUP BY s.id`);
    const lines = await client.query<{ n: string }>(`SELECT coalesce(sum(lines), 0) AS n FROM ${schema}.files`);
    const events: Record<string, number> = {};
    for (const r of ev.rows) events[r.id] = Number(r.n);
    void url;
    return { events, lines: Number(lines.rows[0]!.n) };
  } finally {
    await client.end();
  }
}
