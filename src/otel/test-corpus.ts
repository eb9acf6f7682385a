// Test support: one SQLite store holding the shared fixtures of several formats (Claude Code,
// Codex, Gemini, Control Plane), and the usage_report figures per top-level session to compare
// traces with. Left out of the build (test-*.ts).

import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, tempDir } from '../../test/helpers.js';
import { ingestPaths } from '../ingest/ingest.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { SessionRow, Store } from '../store/store.js';
import { runTool } from '../tools/tool.js';
import { usageReport } from '../tools/usage-report/index.js';

export interface UsageRow {
  session_id: string;
  calls: number;
  tokens: { input: number; output: number; cache_write: number; cache_read: number; reasoning: number };
}

/** A store with the fixtures of four formats, in a temp folder; `db` is its file. */
export async function corpusStore(): Promise<{ store: SqliteStore; db: string }> {
  const dir = tempDir('hs-otel-');
  const db = join(dir, 'store.db');
  const store = new SqliteStore(db);
  const gemini = join(dir, 'gemini');
  cpSync(join(FIXTURES, 'other-agents', 'gemini', 'tmp'), join(gemini, 'tmp'), { recursive: true });
  const chats = join(gemini, 'tmp', '9da8b3dfb8655182ac1f0e66601c367e34f8d18447a29759eeba4d7e45dc60ea', 'chats');
  mkdirSync(chats, { recursive: true });
  cpSync(join(FIXTURES, 'other-agents', 'gemini', 'session-sample.jsonl'), join(chats, 'session-2026-04-23T12-52-0ab84937.jsonl'));
  await ingestPaths(store, [join(FIXTURES, 'claude-code'), join(FIXTURES, 'other-agents', 'codex'), join(FIXTURES, 'control-plane', 'normal')]);
  await ingestPaths(store, [gemini], { format: 'gemini' });
  return { store, db };
}

/** usage_report's session rows (top-level sessions, sub-agents folded in), by session id. */
export async function usageBySession(store: Store): Promise<Map<string, UsageRow>> {
  const result = (await runTool(usageReport, { group_by: 'session', limit: 500 }, { store })) as unknown as { rows: UsageRow[] };
  return new Map(result.rows.map((r) => [r.session_id, r]));
}

/** Every session row of the store. */
export async function allRows(store: Store): Promise<SessionRow[]> {
  return (await store.listSessions({ limit: 100_000, offset: 0 })).sessions;
}
