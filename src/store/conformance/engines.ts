// The engines the conformance suite runs against: a SQLite file in a temp folder, and PostgreSQL in
// a fresh schema of the test server (HINDSIGHT_TEST_PG, default postgres://postgres@127.0.0.1:5432/test).
// In CI an unreachable server fails the suite; elsewhere its PostgreSQL half is skipped with a reason.

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { tempDir } from '../../../test/helpers.js';
import { dropSchema as dropAnySchema } from '../postgres/drop-schema.js';
import { PostgresStore } from '../postgres/postgres-store.js';
import { SqliteStore } from '../sqlite/sqlite-store.js';
import type { Store } from '../store.js';

export const TEST_PG_URL = process.env.HINDSIGHT_TEST_PG || 'postgres://postgres@127.0.0.1:5432/test';

export interface Engine {
  name: 'sqlite' | 'postgres';
  /** A new, empty store (its own file or schema). */
  create(): Promise<Store>;
  /** Another handle on the store `create` returned last (a second process, in effect). */
  reopen(): Promise<Store>;
  /** The --db value of that store (a path or a URL). */
  db(): string;
  /** Remove what `create` made (drop the schema). */
  dispose(): Promise<void>;
}

/** A schema name no other test file uses. */
export function uniqueSchema(prefix = 'hs_test'): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export function withSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('schema', schema);
  return u.toString();
}

/** Why PostgreSQL cannot be used here, or null when it can. Throws in CI instead of returning a reason. */
export async function postgresUnavailable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (err) {
    const reason = `PostgreSQL at ${TEST_PG_URL} cannot be reached (${(err as Error).message || (err as { code?: string }).code})`;
    if (process.env.CI) throw new Error(`${reason}. In CI the PostgreSQL tests must run: start the server (.ci/run does) or set HINDSIGHT_TEST_PG.`);
    console.warn(`${reason}: skipping the PostgreSQL half of the conformance suite. Set HINDSIGHT_TEST_PG to run it.`);
    return reason;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Drop a test schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  await dropAnySchema(TEST_PG_URL, schema);
}

export function sqliteEngine(): Engine {
  let path = '';
  return {
    name: 'sqlite',
    async create() {
      path = join(tempDir('hs-conf-'), 'store.db');
      return new SqliteStore(path);
    },
    async reopen() {
      return new SqliteStore(path);
    },
    db: () => path,
    async dispose() {},
  };
}

export function postgresEngine(): Engine {
  const made: string[] = [];
  let url = '';
  return {
    name: 'postgres',
    async create() {
      const schema = uniqueSchema();
      made.push(schema);
      url = withSchema(TEST_PG_URL, schema);
      return PostgresStore.open(url);
    },
    async reopen() {
      return PostgresStore.open(url);
    },
    db: () => url,
    async dispose() {
      for (const schema of made.splice(0)) await dropSchema(schema);
    },
  };
}
