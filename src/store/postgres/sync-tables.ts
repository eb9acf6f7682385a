// Sync's own tables in a shared PostgreSQL store (docs/sync.md): machines, which machine and real
// root each staged root mirrors, push markers and held-back sessions, on a pool of their own.
// The SQL lives here, with the engine; src/sync gives the rows their meaning.

import pg from 'pg';
import type { HeldRow, RootMapping, SyncTables } from '../sync-remote.js';
import { withRetry, type PostgresTarget } from './connection.js';

const PUSH_LOCK = `hashtext('hindsight sync push ' || current_schema())`;

export class PostgresSyncTables implements SyncTables {
  private readonly pool: pg.Pool;

  constructor(target: PostgresTarget, applicationName: string) {
    this.pool = new pg.Pool({
      connectionString: target.connectionString,
      max: 2,
      allowExitOnIdle: true,
      connectionTimeoutMillis: 10_000,
      options: `-c search_path="${target.schema}"`,
      application_name: applicationName,
    });
    this.pool.on('error', () => {});
  }

  /** One statement with the store's retry rule (a dropped connection or a restarting server is retried). */
  private async q<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    return withRetry(async () => (await this.pool.query<R>(sql, params)).rows);
  }

  async ensure(): Promise<void> {
    const client = await withRetry(() => this.pool.connect());
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

  async registerMachine(machine: { machineId: string; user: string; host: string }, what: 'push' | 'pull' | null): Promise<void> {
    const col = what === 'push' ? ', last_push = now()' : what === 'pull' ? ', last_pull = now()' : '';
    await this.q(
      `INSERT INTO hindsight_sync_machines (machine_id, user_name, host) VALUES ($1, $2, $3)
       ON CONFLICT (machine_id) DO UPDATE SET user_name = EXCLUDED.user_name, host = EXCLUDED.host${col}`,
      [machine.machineId, machine.user, machine.host],
    );
  }

  async registerRoot(root: Omit<RootMapping, 'user' | 'host'>): Promise<void> {
    await this.q(
      `INSERT INTO hindsight_sync_roots (stage_root, machine_id, original_root, format, last_push) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (stage_root) DO UPDATE SET last_push = now()`,
      [root.stageRoot, root.machineId, root.originalRoot, root.format],
    );
  }

  async rootMappings(): Promise<RootMapping[]> {
    const rows = await this.q<{ stage_root: string; machine_id: string; original_root: string; format: string; user_name: string; host: string }>(
      `SELECT r.stage_root, r.machine_id, r.original_root, r.format, m.user_name, m.host
       FROM hindsight_sync_roots r JOIN hindsight_sync_machines m USING (machine_id) ORDER BY r.stage_root`,
    );
    return rows.map((r) => ({ stageRoot: r.stage_root, machineId: r.machine_id, originalRoot: r.original_root, format: r.format, user: r.user_name, host: r.host }));
  }

  async recordPushed(machineId: string, sequences: ReadonlyMap<string, number>): Promise<void> {
    const entries = [...sequences].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    // One statement per 5,000 sessions.
    for (let i = 0; i < entries.length; i += 5000) {
      const part = entries.slice(i, i + 5000);
      await this.q(
        `INSERT INTO hindsight_sync_sessions (session_key, machine_id, sequence)
         SELECT k, $1, s FROM unnest($2::text[], $3::bigint[]) AS t(k, s)
         ON CONFLICT (session_key, machine_id) DO UPDATE SET sequence = EXCLUDED.sequence, pushed_at = now()`,
        [machineId, part.map(([k]) => k), part.map(([, n]) => n)],
      );
    }
  }

  async pushedSequences(machineId: string): Promise<Map<string, number>> {
    const rows = await this.q<{ session_key: string; sequence: string }>('SELECT session_key, sequence FROM hindsight_sync_sessions WHERE machine_id = $1', [machineId]);
    return new Map(rows.map((r) => [r.session_key, Number(r.sequence)]));
  }

  async withPushLock<T>(fn: () => Promise<T>, onWait?: () => void): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await withRetry(() => this.pool.connect());
    } catch (err) {
      throw new LockFailed(err);
    }
    // A server restart kills this connection while it is checked out: the push carries on (its own
    // statements retry) instead of the process dying on an unhandled 'error' event.
    client.on('error', () => {});
    try {
      const got = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${PUSH_LOCK}) AS ok`);
      if (!got.rows[0]?.ok) {
        onWait?.();
        await client.query(`SELECT pg_advisory_lock(${PUSH_LOCK})`);
      }
    } catch (err) {
      client.release(true);
      throw new LockFailed(err);
    }
    try {
      return await fn();
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${PUSH_LOCK})`).catch(() => {});
      // Destroyed rather than returned: the connection may be the one a restart broke.
      client.release(true);
    }
  }

  async recordHeld(machineId: string, rows: Omit<HeldRow, 'machineId'>[]): Promise<void> {
    for (const r of rows) {
      await this.q(
        `INSERT INTO hindsight_sync_held (session_key, machine_id, holder_machine_id, relation, local_sequence, detail) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (session_key, machine_id) DO UPDATE SET holder_machine_id = EXCLUDED.holder_machine_id, relation = EXCLUDED.relation,
         local_sequence = EXCLUDED.local_sequence, detail = EXCLUDED.detail, updated = now()`,
        [r.sessionKey, machineId, r.holderMachineId, r.relation, r.localSequence, JSON.stringify(r.detail)],
      );
    }
  }

  async clearHeld(machineId: string, keep: string[]): Promise<void> {
    await this.q('DELETE FROM hindsight_sync_held WHERE machine_id = $1 AND NOT (session_key = ANY($2::text[]))', [machineId, keep]);
  }

  async heldRows(): Promise<HeldRow[]> {
    const rows = await this.q<{ session_key: string; machine_id: string; holder_machine_id: string | null; relation: string; local_sequence: number; detail: string }>(
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

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }
}

/** Taking the push lock failed (the server went away): the caller says the remote is unreachable. */
export class LockFailed extends Error {
  constructor(cause: unknown) {
    super('could not take the sync push lock', { cause });
  }
}
