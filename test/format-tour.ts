// Every tool on every session of one ingested root: what "every tool works on a format" means in a
// test. A new format's test ingests its sample home and calls `tourEveryTool`; each call must answer
// `status: ok`, and the results come back by tool for assertions on their content.

import { ingestPaths } from '../src/ingest/ingest.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { findTool } from '../src/tools/registry.js';
import { runTool, type ToolResult } from '../src/tools/tool.js';
import { join } from 'node:path';
import { tempDir } from './helpers.js';

/** The calls made for each session: tool name and arguments (session_id is added). */
export const SESSION_CALLS: readonly (readonly [string, Record<string, unknown>])[] = [
  ['session_overview', {}],
  ['get_session', { include_transcript: true, include_events_summary: true }],
  ['reconstruct_session', { verbosity: 'full' }],
  ['reconstruct_session', {}],
  ['get_events', {}],
  ['analyze_events', { analysis_type: 'summary' }],
  ['analyze_events', { analysis_type: 'errors' }],
  ['analyze_events', { analysis_type: 'timeline' }],
  ['analyze_events', { analysis_type: 'usage' }],
  ['analyze_events', { analysis_type: 'calls' }],
  ['raw_lines', {}],
  ['grep_jsonl', { pattern: '"' }],
  ['inspect_metrics', { view: 'session' }],
  ['export_session', { format: 'replay' }],
  ['export_session', { format: 'markdown' }],
  ['export_session', { format: 'jsonl' }],
];

export interface Tour {
  store: Store;
  sessions: Record<string, unknown>[];
  /** `${tool}:${JSON args}` → result, per session id. */
  results: Map<string, Map<string, ToolResult>>;
  /** Store-wide calls: list_sessions, usage_report (daily, session), search_sessions, inspect_metrics recent. */
  global: Map<string, ToolResult>;
  /** Every call that did not answer ok, as `session tool args → error`. */
  failures: string[];
}

async function call(store: Store, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const tool = findTool(name);
  if (!tool) throw new Error(`no tool ${name}`);
  return runTool(tool, args, { store });
}

/**
 * Ingest `root` (as `format` when given) into a fresh SQLite store and call every tool.
 *
 * @example const tour = await tourEveryTool('../shared/fixtures/other-agents/codex', 'codex'); expect(tour.failures).toEqual([]);
 */
export async function tourEveryTool(root: string, format?: string, searchWord = 'the'): Promise<Tour> {
  const store = await openStore({ db: join(tempDir('hs-tour-'), 'tour.db') });
  await ingestPaths(store, [root], format ? { format } : {});
  const failures: string[] = [];
  const global = new Map<string, ToolResult>();
  const globalCalls: [string, Record<string, unknown>][] = [
    ['list_sessions', { limit: 500 }],
    ['usage_report', { group_by: 'daily' }],
    ['usage_report', { group_by: 'session' }],
    ['search_sessions', { query: searchWord }],
    ['inspect_metrics', { view: 'recent' }],
    ['inspect_metrics', { view: 'stats', days: 3660 }],
    ['grep_jsonl', { pattern: '"', scope: 'all' }],
  ];
  for (const [name, args] of globalCalls) {
    const r = await call(store, name, args);
    global.set(`${name}:${JSON.stringify(args)}`, r);
    if (r.status !== 'ok') failures.push(`${name} ${JSON.stringify(args)} → ${JSON.stringify(r).slice(0, 300)}`);
  }
  const list = global.get(`list_sessions:${JSON.stringify({ limit: 500 })}`)!;
  const sessions = (list.status === 'ok' ? (list.sessions as Record<string, unknown>[]) : []) ?? [];
  const results = new Map<string, Map<string, ToolResult>>();
  for (const s of sessions) {
    const id = String(s.session_id);
    const mine = new Map<string, ToolResult>();
    results.set(id, mine);
    for (const [name, extra] of SESSION_CALLS) {
      const args = { session_id: id, ...extra };
      const r = await call(store, name, args);
      mine.set(`${name}:${JSON.stringify(extra)}`, r);
      if (r.status !== 'ok') failures.push(`${id} ${name} ${JSON.stringify(extra)} → ${JSON.stringify(r).slice(0, 300)}`);
    }
  }
  return { store, sessions, results, global, failures };
}
