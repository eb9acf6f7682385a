// The in-memory importer harness moved to src/ingest/harness.ts (it runs the ingest pipeline's
// parsing, so it belongs above formats). Re-exported here until the lead sweeps the format tests
// that import this path.
export { runImporter, type HarnessResult, type HarnessSession } from '../ingest/harness.js';
