// The other process of kept-answers.test.ts: ingests a folder into an existing SQLite store, as a
// `hindsight ingest` beside a running server would, then exits.
// Usage: vite-node test-ingest-child.ts <db> <folder>

import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';

const [db, folder] = process.argv.slice(2);
const store = new SqliteStore(db!);
await ingestPaths(store, [folder!]);
await store.close();
