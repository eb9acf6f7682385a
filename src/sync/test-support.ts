// Test support for sync: a fresh remote schema on the test server, simulated machines (a SQLite
// store, an identity and a cache folder each), and per-session event counts to compare stores.

import { join } from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { unpackLines } from '../store/sqlite/line-index.js';
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

/**
 * Everything a remote schema holds that must be identical between two pushes of the same store,
 * section by section (store ids left out; the stage roots are the same for one machine): sessions,
 * events, evidence per line, files, defects, usage calls, search statistics and sync's own tables.
 */
export async function remoteFingerprint(schema: string): Promise<Record<string, unknown[]>> {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  const rows = async (sql: string) => (await client.query<{ r: unknown }>(sql.replaceAll('S.', `${schema}.`))).rows.map((x) => x.r);
  try {
    const blocks = (await client.query<{ rel_path: string; generation: number; first_line: number; first_offset: string; line_index: Buffer }>(
      `SELECT f.rel_path, f.generation, b.first_line, b.first_offset, b.line_index FROM ${schema}.blocks b JOIN ${schema}.files f ON f.id = b.file_id ORDER BY f.rel_path, f.generation, b.first_line`,
    )).rows;
    return {
      sessions: await rows(`SELECT to_jsonb(s) - 'sid' - 'root_id' AS r FROM S.sessions s ORDER BY s.id`),
      events: await rows(
        `SELECT to_jsonb(e) - 'id' - 'sid' - 'file_id' || jsonb_build_object('session', s.id, 'file', f.rel_path, 'generation', f.generation) AS r
         FROM S.events e JOIN S.sessions s ON s.sid = e.sid JOIN S.files f ON f.id = e.file_id ORDER BY s.id, e.seq, e.part`,
      ),
      // Per line, not per block: block boundaries depend on when each ingest ran, lines do not.
      lines: blocks.flatMap((b) =>
        unpackLines(b.line_index, b.first_line, Number(b.first_offset)).map((l) => `${b.rel_path}#${b.generation}:${l.lineNumber}@${l.offset}+${l.length} ${l.status} ${l.hash.toString('hex')}`),
      ),
      files: await rows(`SELECT to_jsonb(f) - 'id' - 'root_id' AS r FROM S.files f ORDER BY f.rel_path, f.generation`),
      defects: await rows(`SELECT to_jsonb(d) - 'id' - 'root_id' - 'file_id' AS r FROM S.defects d ORDER BY d.rel_path, d.line, d.kind, d.message`),
      usage: await rows(`SELECT to_jsonb(u) - 'sid' || jsonb_build_object('session', s.id) AS r FROM S.usage_calls u JOIN S.sessions s ON s.sid = u.sid ORDER BY s.id, u.seq`),
      fts: await rows(`SELECT to_jsonb(t) AS r FROM S.fts_stats t`),
      roots: await rows(`SELECT jsonb_build_array(stage_root, machine_id, original_root, format) AS r FROM S.hindsight_sync_roots ORDER BY stage_root`),
      pushed: await rows(`SELECT jsonb_build_array(session_key, machine_id, sequence) AS r FROM S.hindsight_sync_sessions ORDER BY session_key, machine_id`),
    };
  } finally {
    await client.end();
  }
}

/** Assert two remote schemas hold the same data, reporting the first differing section and item (not a megabyte diff). */
export async function expectSameRemote(actualSchema: string, expectedSchema: string): Promise<void> {
  const a = await remoteFingerprint(actualSchema);
  const b = await remoteFingerprint(expectedSchema);
  for (const section of Object.keys(b)) {
    const [x, y] = [a[section]!, b[section]!];
    const i = x.findIndex((v, k) => JSON.stringify(v) !== JSON.stringify(y[k]));
    const at = i === -1 ? Math.min(x.length, y.length) : i;
    expect({ section, at, length: x.length, item: x[at] }).toEqual({ section, at, length: y.length, item: y[at] });
  }
}
