// A store with real fixtures ingested (Claude Code and a Control Plane root) and a workspace
// folder, shared by the HTTP surface's tests.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';

export const CC_SESSION = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
export const CC_INTERRUPTED = 'd6e0bada-1959-4eec-a9d2-0bfade768d8f';
export const CP_SESSION = 'SES-5078F5F8';

export interface TestStore {
  store: SqliteStore;
  db: string;
  workspace: string;
}

/** A fresh store in a temp folder with claude-code and control-plane/normal ingested. */
export async function fixtureStore(): Promise<TestStore> {
  const dir = tempDir('hs-http-');
  const db = join(dir, 'h.db');
  const store = new SqliteStore(db);
  await ingestPaths(store, [copyFixture('claude-code'), copyFixture('control-plane/normal')]);
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'notes.txt'), 'hello\n');
  return { store, db, workspace };
}

/** Arguments that make each tool answer `ok` on the fixture store (rewind is a dry run). */
export const EXAMPLE_ARGS: Readonly<Record<string, Record<string, unknown>>> = {
  list_sessions: { limit: 5 },
  session_overview: { session_id: CC_SESSION },
  reconstruct_session: { session_id: CC_SESSION, limit: 20 },
  query_ledger: { ledger: 'governance' },
  query_ledger_full: { ledger: 'ho2m', limit: 5 },
  grep_jsonl: { pattern: 'SESSION', ledger: 'ho2m', limit: 5 },
  search_sessions: { query: 'budget' },
  get_session: { session_id: CP_SESSION },
  get_events: { session_id: CP_SESSION, limit: 5 },
  analyze_events: { session_id: CP_SESSION, analysis_type: 'summary' },
  export_session: { session_id: CP_SESSION, format: 'markdown' },
  usage_report: { group_by: 'daily' },
  inspect_metrics: { view: 'stats', until: '2026-12-31', days: 3660 },
  rewind_session: { session_id: CC_INTERRUPTED, to_turn: 1 },
  raw_lines: { session_id: CP_SESSION, limit: 3 },
  sources: {},
  verify_ledger: { ledger: 'governance' },
  list_files: {},
  read_file: { path: 'notes.txt' },
  parse_tool_calls: { parser: 'hermes', text: '<tool_call>{"name": "f", "arguments": {}}</tool_call>' },
  // Without a configured remote: ok, connected false, saying how to configure one.
  sync_status: {},
};
