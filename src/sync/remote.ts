// The sync remote: an ordinary Hindsight PostgreSQL store, plus tables of sync's own in the same
// schema (machines, which machine and real root each staged root mirrors, held-back sessions, and
// push markers), on a pool of its own.

import { withoutPassword } from '../store/postgres/url.js';
import pg from 'pg';
import { HindsightError } from '../core/errors.js';
import { isPostgresUrl, isTransient, openFailureReason, parseTarget, withRetry } from '../store/postgres/connection.js';
import { openStore } from '../store/open.js';
import type { Store } from '../store/store.js';
import { SyncRemoteNotPostgres, SyncRemoteUnreachable } from './errors.js';
import type { MachineIdentity } from './identity.js';

export interface RootMapping {
  stageRoot: string;
  machineId: string;
  originalRoot: string;
  format: string;
  user: string;
  host: string;
}

export interface Remote {
  store: Store;
  pool: pg.Pool;
  /** The URL without its password. */
  location: string;
  schema: string;
  close(): Promise<void>;
}

/** The application_name of sync's own connections (tests terminate them to simulate a server restart). */
export function syncAppName(): string {
  return `hindsight sync pid ${process.pid}`;
}

function unreachable(location: string, err: unknown): HindsightError {
  const reason = err instanceof HindsightError ? err.message.replace(/^Cannot open the PostgreSQL store at \S+ \((.*?)\)\..*$/s, '$1') : openFailureReason(err);
  return SyncRemoteUnreachable(location, reason);
}

/** Open the remote store and sync's tables; an unreachable server is SYNC_REMOTE_UNREACHABLE, before anything local changes. */
export async function openRemote(url: string): Promise<Remote> {
  if (!isPostgresUrl(url)) throw SyncRemoteNotPostgres(url);
  let target: ReturnType<typeof parseTarget>;
  try {
    target = parseTarget(url);
  } catch (err) {
    // The store's sentence names --db; this one is about the remote.
    throw unreachable(withoutPassword(url), err);
  }
  let store: Store;
  try {
    store = await openStore({ db: url });
  } catch (err) {
    throw unreachable(target.location, err);
  }
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: 2,
    allowExitOnIdle: true,
    connectionTimeoutMillis: 10_000,
    options: `-c search_path="${target.schema}"`,
    application_name: syncAppName(),
  });
  pool.on('error', () => {});
  const remote: Remote = {
    store,
    pool,
    location: target.location,
    schema: target.schema,
    async close() {
      await pool.end().catch(() => {});
      await store.close().catch(() => {});
    },
  };
  try {
    await ensureTables(remote);
  } catch (err) {
    await remote.close();
    if (err instanceof HindsightError) throw err;
    throw unreachable(target.location, err);
  }
  return remote;
}

/** Run one statement with the store's retry rule (a dropped connection or a restarting server is retried). */
export async function q<R extends pg.QueryResultRow>(remote: Remote, sql: string, params: unknown[] = []): Promise<R[]> {
  try {
    return await withRetry(async () => (await remote.pool.query<R>(sql, params)).rows);
  } catch (err) {
    throw unreachable(remote.location, err);
  }
}

async function ensureTables(remote: Remote): Promise<void> {
  const client = await withRetry(() => remote.pool.connect());
  try {
    await client.query('BEGIN');
    // Two machines syncing to a fresh schema at once must not both create the tables.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('hindsight sync tables ' || current_schema()))`);
    await client.query(`CREATE TABLE IF NOT EXISTS hindsight_sync_machines (
      machine_id text COLLATE "C" PRIMARY KEY, user_name text NOT NULL, host text NOT NULL,
      first_seen timestamptz NOT NULL DEFAULT now(), last_push timestamptz, last_pull timestamptz)`);
    await client.query(`CREATE TABLE IF NOT EXISTS hindsight_sync_roots (
      stage_root text COLLATE "C" PRIMARY KEY, machine_id text COLLATE "C" NOT NULL REFERENCES hindsight_sync_machines(machine_id),
      original_root text NOT NULL, format text NOT NULL, first_push timestamptz NOT NULL DEFAULT now(), last_push timestamptz)`);
    // A session held back from a push because another machine's copy is already there: what this
    // machine has, and how it compares, so every machine's sync_status can report the pair.
    await client.query(`CREATE TABLE IF NOT EXISTS hindsight_sync_held (
      session_key text COLLATE "C" NOT NULL, machine_id text COLLATE "C" NOT NULL, holder_machine_id text COLLATE "C",
      relation text NOT NULL, local_sequence bigint NOT NULL, detail text NOT NULL, updated timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (session_key, machine_id))`);
    // Push markers: the sequence of each session a push of this machine *finished* (evidence and
    // summaries committed). Lines a killed push wrote without its summaries are not counted as
    // synced, so the next push and sync_status know the remote copy is incomplete.
    await client.query(`CREATE TABLE IF NOT EXISTS hindsight_sync_sessions (
      session_key text COLLATE "C" NOT NULL, machine_id text COLLATE "C" NOT NULL, sequence bigint NOT NULL,
      pushed_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (session_key, machine_id))`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** Record that a push of this machine finished these sessions at these sequences (one statement per 5,000). */
export async function recordPushed(remote: Remote, me: MachineIdentity, sequences: Map<string, number>): Promise<void> {
  const entries = [...sequences].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (let i = 0; i < entries.length; i += 5000) {
    const part = entries.slice(i, i + 5000);
    await q(
      remote,
      `INSERT INTO hindsight_sync_sessions (session_key, machine_id, sequence)
       SELECT k, $1, s FROM unnest($2::text[], $3::bigint[]) AS t(k, s)
       ON CONFLICT (session_key, machine_id) DO UPDATE SET sequence = EXCLUDED.sequence, pushed_at = now()`,
      [me.machineId, part.map(([k]) => k), part.map(([, n]) => n)],
    );
  }
}

/** Session key → the sequence the last finished push of `machineId` left on the remote. */
export async function pushedSequences(remote: Remote, machineId: string): Promise<Map<string, number>> {
  const rows = await q<{ session_key: string; sequence: string }>(remote, 'SELECT session_key, sequence FROM hindsight_sync_sessions WHERE machine_id = $1', [machineId]);
  return new Map(rows.map((r) => [r.session_key, Number(r.sequence)]));
}

/** Record (or refresh) this machine's identity; every pushed root points at it. */
export async function registerMachine(remote: Remote, me: MachineIdentity, what: 'push' | 'pull' | null): Promise<void> {
  const col = what === 'push' ? ', last_push = now()' : what === 'pull' ? ', last_pull = now()' : '';
  await q(
    remote,
    `INSERT INTO hindsight_sync_machines (machine_id, user_name, host) VALUES ($1, $2, $3)
     ON CONFLICT (machine_id) DO UPDATE SET user_name = EXCLUDED.user_name, host = EXCLUDED.host${col}`,
    [me.machineId, me.user, me.host],
  );
}

export async function registerRoot(remote: Remote, me: MachineIdentity, stageRoot: string, originalRoot: string, format: string): Promise<void> {
  await q(
    remote,
    `INSERT INTO hindsight_sync_roots (stage_root, machine_id, original_root, format, last_push) VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (stage_root) DO UPDATE SET last_push = now()`,
    [stageRoot, me.machineId, originalRoot, format],
  );
}

/** Every staged root on the remote with its machine and the person behind it. */
export async function rootMappings(remote: Remote): Promise<RootMapping[]> {
  const rows = await q<{ stage_root: string; machine_id: string; original_root: string; format: string; user_name: string; host: string }>(
    remote,
    `SELECT r.stage_root, r.machine_id, r.original_root, r.format, m.user_name, m.host
     FROM hindsight_sync_roots r JOIN hindsight_sync_machines m USING (machine_id) ORDER BY r.stage_root`,
  );
  return rows.map((r) => ({ stageRoot: r.stage_root, machineId: r.machine_id, originalRoot: r.original_root, format: r.format, user: r.user_name, host: r.host }));
}

/**
 * Hold the push lock for the remote's schema on a connection of its own while `fn` runs: pushes
 * from several machines take turns, so "is this session already on the remote from another
 * machine?" cannot race. The server frees it if this process dies.
 */
export async function withPushLock<T>(remote: Remote, fn: () => Promise<T>, onWait?: () => void): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await withRetry(() => remote.pool.connect());
    // A server restart kills this connection while it is checked out: the push carries on (its own
    // statements retry) instead of the process dying on an unhandled 'error' event.
    client.on('error', () => {});
    const got = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(hashtext('hindsight sync push ' || current_schema())) AS ok`);
    if (!got.rows[0]?.ok) {
      onWait?.();
      await client.query(`SELECT pg_advisory_lock(hashtext('hindsight sync push ' || current_schema()))`);
    }
  } catch (err) {
    throw unreachable(remote.location, err);
  }
  try {
    return await fn();
  } finally {
    await client.query(`SELECT pg_advisory_unlock(hashtext('hindsight sync push ' || current_schema()))`).catch(() => {});
    // Destroyed rather than returned: the connection may be the one a restart broke.
    client.release(true);
  }
}

/** Turn a lost connection during a sync step into the sentence users get. */
export function asSyncError(remote: Remote, err: unknown): unknown {
  if (err instanceof HindsightError && err.code !== 'STORE_UNAVAILABLE') return err;
  if (err instanceof HindsightError) return SyncRemoteUnreachable(remote.location, err.message.replace(/^Lost the connection to the PostgreSQL store at \S+ \((.*?)\), and.*$/s, '$1'));
  if (isTransient(err)) return unreachable(remote.location, err);
  return err;
}

export interface HeldRow {
  sessionKey: string;
  machineId: string;
  holderMachineId: string | null;
  relation: string;
  localSequence: number;
  detail: unknown;
}

/** Record that this machine held a session back (or clear it once it is no longer held). */
export async function recordHeld(remote: Remote, me: MachineIdentity, rows: Omit<HeldRow, 'machineId'>[]): Promise<void> {
  for (const r of rows) {
    await q(
      remote,
      `INSERT INTO hindsight_sync_held (session_key, machine_id, holder_machine_id, relation, local_sequence, detail) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (session_key, machine_id) DO UPDATE SET holder_machine_id = EXCLUDED.holder_machine_id, relation = EXCLUDED.relation,
       local_sequence = EXCLUDED.local_sequence, detail = EXCLUDED.detail, updated = now()`,
      [r.sessionKey, me.machineId, r.holderMachineId, r.relation, r.localSequence, JSON.stringify(r.detail)],
    );
  }
}

/** Forget this machine's held-back records except for `keep`. */
export async function clearHeld(remote: Remote, me: MachineIdentity, keep: string[]): Promise<void> {
  await q(remote, 'DELETE FROM hindsight_sync_held WHERE machine_id = $1 AND NOT (session_key = ANY($2::text[]))', [me.machineId, keep]);
}

export async function heldRows(remote: Remote): Promise<HeldRow[]> {
  const rows = await q<{ session_key: string; machine_id: string; holder_machine_id: string | null; relation: string; local_sequence: number; detail: string }>(
    remote,
    'SELECT session_key, machine_id, holder_machine_id, relation, local_sequence, detail FROM hindsight_sync_held ORDER BY session_key, machine_id',
  );
  return rows.map((r) => ({
    sessionKey: r.session_key,
    machineId: r.machine_id,
    holderMachineId: r.holder_machine_id,
    relation: r.relation,
    localSequence: Number(r.local_sequence),
    detail: JSON.parse(r.detail) as unknown,
  }));
}
