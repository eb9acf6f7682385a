// Runs one ingest in its own process so that the bench can read its peak RSS cleanly.
// Usage: node dist/bench/ingest-child.js DB PATH...

import { ingestPaths } from '../src/ingest/ingest.js';
import { openStore } from '../src/store/open.js';

const [db, ...paths] = process.argv.slice(2);
if (!db || paths.length === 0) {
  process.stderr.write('usage: ingest-child DB PATH...\n');
  process.exit(2);
}
const store = await openStore({ db });
const summary = await ingestPaths(store, paths);
await store.close();
process.stdout.write(
  JSON.stringify({ ...summary, maxRssBytes: process.resourceUsage().maxRSS * 1024 }) + '\n',
);
