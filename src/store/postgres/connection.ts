// Connecting to PostgreSQL: the URL (with its `schema` option), a pool whose integers come back as
// numbers, retries with backoff on transient failures, and a plain sentence when the server is out of reach.

import pg from 'pg';
import { defineError } from '../../core/errors.js';

export const PostgresOpenFailed = defineError(
  'STORE_OPEN_FAILED',
  (location: string, reason: string) =>
    `Cannot open the PostgreSQL store at ${location} (${reason}). Check that the server is running and the URL in --db or HINDSIGHT_DB is right (postgres://user@host:5432/database?schema=name).`,
);

export const PostgresUnavailable = defineError(
  'STORE_UNAVAILABLE',
  (location: string, reason: string) =>
    `Lost the connection to the PostgreSQL store at ${location} (${reason}), and retrying did not help. Check that the server is running and reachable, then run the command again (an interrupted ingest resumes where it stopped).`,
);

export const InvalidPostgresSchema = defineError(
  'STORE_OPEN_FAILED',
  (schema: string) =>
    `"${schema}" is not a usable PostgreSQL schema name for Hindsight. Give one ?schema= of lower-case letters, digits and _ (starting with a letter or _, not pg_, not information_schema), at most 63 characters, e.g. ?schema=hindsight.`,
);

export { isPostgresUrl } from './url.js';
import { isSchemaName, withoutPassword } from './url.js';

export interface PostgresTarget {
  /** The URL handed to the driver (without the `schema` option). */
  connectionString: string;
  /** The URL without its password: what `Store.location` shows. */
  location: string;
  schema: string;
}

/**
 * Split a store URL into what the driver needs and the schema Hindsight keeps its tables in
 * (`?schema=name`, default `public`; an explicit `schema` option wins over the URL's).
 *
 * @example parseTarget('postgres://me:pw@db/h?schema=team') // { schema: 'team', location: 'postgres://me@db/h?schema=team', … }
 */
export function parseTarget(url: string, schemaOption?: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw PostgresOpenFailed(withoutPassword(url), 'the URL cannot be parsed');
  }
  const schema = schemaOption ?? parsed.searchParams.get('schema') ?? 'public';
  if (parsed.searchParams.getAll('schema').length > 1 && schemaOption === undefined) throw InvalidPostgresSchema(parsed.searchParams.getAll('schema').join(', '));
  if (!isSchemaName(schema)) throw InvalidPostgresSchema(schema);
  parsed.searchParams.delete('schema');
  const connectionString = parsed.toString();
  const shown = new URL(connectionString);
  shown.password = '';
  for (const secret of ['password', 'sslpassword']) shown.searchParams.delete(secret);
  if (schema !== 'public') shown.searchParams.set('schema', schema);
  return { connectionString, location: shown.toString(), schema };
}

// int8 (counts, sums of integers) and numeric (sums of int8) as JS numbers: every figure the store
// returns is far below 2^53, and callers expect numbers, as SQLite gives them.
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => (v === null ? null : Number(v));
    return pg.types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};

/** A pool whose connections all use the store's schema. */
export function createPool(target: PostgresTarget, max = 6): pg.Pool {
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max,
    idleTimeoutMillis: 10_000,
    // Idle connections never keep a finished command's process alive.
    allowExitOnIdle: true,
    connectionTimeoutMillis: 10_000,
    // The schema name is validated by isSchemaName and quoted (a keyword such as `user` is a valid
    // name). Commits do not wait
    // for the WAL flush: each batch stays atomic with its checkpoint, and a server crash can only
    // lose the last batches, which the next ingest reads again (several times faster for small files).
    options: `-c search_path="${target.schema}" -c synchronous_commit=off`,
    application_name: `hindsight pid ${process.pid}`,
    types,
  });
  // An idle connection the server drops (restart, admin_shutdown) must not crash the process: the
  // pool discards it and the next query opens a new one.
  pool.on('error', () => {});
  return pool;
}

const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up)
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '53300', // too_many_connections
  '08000',
  '08003',
  '08006',
  '08001',
]);

/** Failures worth retrying: the server restarting or out of connections, a dropped socket, a serialisation conflict. */
export function isTransient(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  if (!e) return false;
  if (e.code && TRANSIENT_CODES.has(e.code)) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(e.message ?? '');
}

export interface RetryOptions {
  attempts?: number;
  baseDelayMs?: number;
  /** When set, a transient failure that outlasts the retries becomes PostgresUnavailable (a sentence, not a driver stack). */
  location?: string;
}

/** Run `fn` again after transient failures (100 ms, 200 ms, 400 ms … with jitter); other errors go straight through. */
export async function withRetry<T>(fn: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 6;
  const base = options.baseDelayMs ?? 100;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isTransient(err)) throw err;
      if (attempt >= attempts) throw options.location === undefined ? err : PostgresUnavailable(options.location, openFailureReason(err));
      const delay = base * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/** The reason to show for a failure to open: the driver's message, without a stack, with the server's code when it has one. */
export function openFailureReason(err: unknown): string {
  const e = err as { code?: string; message?: string; errors?: { message?: string }[] };
  if (e.code === 'ECONNREFUSED') return 'connection refused: no server is listening there';
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return 'the host name cannot be resolved';
  if (e.code === '3D000') return `${e.message ?? 'the database does not exist'}; create it first (createdb)`;
  if (e.code === '28P01' || e.code === '28000') return `${e.message ?? 'authentication failed'}; check the user and password`;
  const msg = e.message || e.errors?.map((x) => x.message).join('; ') || String(err);
  return e.code ? `${msg} [${e.code}]` : msg;
}

/** Ignore a checked-out client's connection errors between queries (the next query fails and is retried); returns the undo. */
export function guardClient(client: pg.PoolClient): () => void {
  const ignore = () => {};
  client.on('error', ignore);
  return () => client.removeListener('error', ignore);
}
