// Dropping a whole Hindsight schema (tests and benchmarks make one each): a connection of its own,
// and a server that went away is not an error here.

import pg from 'pg';

/**
 * @example await dropSchema('postgres://postgres@127.0.0.1:5432/test', 'hs_test_1a2b3c4d');
 */
export async function dropSchema(url: string, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`refusing to drop "${schema}": not a Hindsight schema name`);
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end().catch(() => {});
  }
}
