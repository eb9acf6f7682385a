// The same corpora in a new SQLite file and a new PostgreSQL schema, for the tests that compare the
// two engines' reads of one store side by side (PostgreSQL's own read paths against SQLite's).

import { join } from 'node:path';
import { ingestPaths } from '../src/ingest/ingest.js';
import { dropSchema, TEST_PG_URL, uniqueSchema, withSchema } from '../src/store/conformance/engines.js';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { tempDir } from './helpers.js';

export interface IngestedOnBoth {
  sqlite: SqliteStore;
  postgres: PostgresStore;
  /** Close both and drop the schema. */
  dispose(): Promise<void>;
}

/** @example const both = await ingestedOnBoth([join(FIXTURES, 'claude-code')]); … await both.dispose(); */
export async function ingestedOnBoth(corpora: string[], prefix = 'hs_both'): Promise<IngestedOnBoth> {
  const schema = uniqueSchema(prefix);
  const postgres = await PostgresStore.open(withSchema(TEST_PG_URL, schema));
  const sqlite = new SqliteStore(join(tempDir(`${prefix}-`), 'h.db'));
  const dispose = async () => {
    await postgres.close();
    await sqlite.close();
    await dropSchema(schema);
  };
  try {
    await ingestPaths(postgres, corpora);
    await ingestPaths(sqlite, corpora);
  } catch (err) {
    await dispose();
    throw err;
  }
  return { sqlite, postgres, dispose };
}
