// The single-writer ingest lock of a PostgreSQL store: a session advisory lock per schema, held on
// a connection of its own for the whole ingest. The server drops it when that connection ends, so
// a killed ingest never leaves a stale lock; the holder's pid travels in its application_name.

import pg from 'pg';
import { IngestBusy } from '../../core/errors.js';
import { withRetry, type PostgresTarget } from './connection.js';
import { LOCK_CLASS_INGEST } from './migrations.js';

/** The pid of the process holding the lock, read from the holder connection's application_name. */
async function holderPid(client: pg.Client, schema: string): Promise<number> {
  const { rows } = await client.query<{ application_name: string }>(
    `SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted AND l.classid::bigint = $1 AND l.objid::bigint = (hashtext($2)::bigint & 4294967295)
       AND l.objsubid = 2`,
    [LOCK_CLASS_INGEST, schema],
  );
  const m = /pid (\d+)/.exec(rows[0]?.application_name ?? '');
  return m ? Number(m[1]) : 0;
}

/**
 * Take the lock or throw IngestBusy; with `wait`, poll until it is free or the timeout passes.
 * Returns the release function.
 */
export async function acquirePgIngestLock(
  target: PostgresTarget,
  options: { wait?: boolean; waitTimeoutMs?: number } = {},
): Promise<() => Promise<void>> {
  const deadline = Date.now() + (options.waitTimeoutMs ?? 60 * 60 * 1000);
  const client = await withRetry(async () => {
    const c = new pg.Client({ connectionString: target.connectionString, application_name: `hindsight ingest pid ${process.pid}` });
    c.on('error', () => {});
    try {
      await c.connect();
    } catch (err) {
      await c.end().catch(() => {});
      throw err;
    }
    return c;
  }, { location: target.location });
  try {
    for (;;) {
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [
        LOCK_CLASS_INGEST,
        target.schema,
      ]);
      if (rows[0]?.ok) break;
      if (!options.wait || Date.now() > deadline) throw IngestBusy(target.location, await holderPid(client, target.schema));
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS_INGEST, target.schema]).catch(() => {});
    await client.end().catch(() => {});
  };
}
