// Dropping a whole Hindsight schema (tests and benchmarks make one each): a connection of its own,
// and a server that went away is not an error here.

import pg from 'pg';
import { isSchemaName } from './url.js';

/**
 * @example await dropSchema('postgres://postgres@127.0.0.1:5432/test', 'hs_test_1a2b3c4d');
 */
export async function dropSchema(url: string, schema: string): Promise<void> {
  if (!isSchemaName(schema)) throw new Error(`refusing to drop "${schema}": not a Hindsight schema name`);
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end().catch(() => {});
  }
}
