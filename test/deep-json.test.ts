// Issue 12 item 4: a line nested 100,000 levels deep goes through every tool that returns payloads
// (before: RangeError "Maximum call stack size exceeded" in redactValue, capValue, the envelope).

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestPaths } from '../src/ingest/ingest.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { findTool } from '../src/tools/registry.js';
import { runTool } from '../src/tools/tool.js';
import { DEEP_CC_SESSION as CC, DEEP_CP_SESSION as CP, writeDeepRoots } from './deep-roots.js';
import { tempDir } from './helpers.js';

const DEPTH = 100_000;
let store: SqliteStore;

beforeAll(async () => {
  const { claude, plane } = writeDeepRoots(DEPTH);
  store = new SqliteStore(join(tempDir('hs-deep-db-'), 'h.db'));
  await ingestPaths(store, [claude, plane]);
});

const CALLS: [string, Record<string, unknown>][] = [];
for (const redact of [true, false]) {
  CALLS.push(
    ['reconstruct_session', { session_id: CC, verbosity: 'full', include_tool_payloads: true, redact }],
    ['reconstruct_session', { session_id: CP, verbosity: 'full', redact }],
    ['query_ledger_full', { ledger: 'ho2m', redact }],
    ['query_ledger_full', { session_id: CC, redact }],
    ['get_events', { session_id: CC, fields: ['toolUseResult', 'toolUseResult.a.a'], redact }],
    ['get_events', { session_id: CP, fields: ['metadata'], redact }],
    ['export_session', { session_id: CC, format: 'jsonl', redact }],
    ['export_session', { session_id: CC, format: 'replay', redact }],
    ['export_session', { session_id: CC, format: 'markdown', redact }],
    ['export_session', { session_id: CP, format: 'replay', redact }],
    ['get_session', { session_id: CC, include_transcript: true, redact }],
    ['session_overview', { session_id: CC, redact }],
    ['query_ledger', { ledger: 'ho2m', redact }],
  );
}
CALLS.push(
  ['raw_lines', { session_id: CC }],
  ['grep_jsonl', { pattern: 'bottom', session_id: CC }],
  ['search_sessions', { query: 'deep' }],
  ['analyze_events', { session_id: CC, analysis_type: 'errors' }],
  ['verify_ledger', { ledger: 'ho2m' }],
  ['inspect_metrics', { session_id: CC }],
);

describe(`a line nested ${DEPTH.toLocaleString('en-US')} levels deep`, () => {
  it.each(CALLS)('%s %j answers ok and serialises', async (name, args) => {
    const result = await runTool(findTool(name)!, args, { store });
    expect(result, JSON.stringify(result).slice(0, 300)).toMatchObject({ status: 'ok' });
    expect(() => JSON.stringify(result)).not.toThrow();
  });

  it('payloads keep 1,000 levels and say where they were cut', async () => {
    const r = (await runTool(findTool('query_ledger_full')!, { ledger: 'ho2m', redact: false }, { store })) as Record<string, any>;
    const entry = r.entries.find((e: Record<string, any>) => e.metadata?.deep);
    let node = entry.metadata.deep;
    // The line is level 1, metadata 2, deep 3: 998 levels of `deep` fit under 1,000.
    let levels = 1;
    while (typeof node.a === 'object') {
      node = node.a;
      levels++;
    }
    expect(levels).toBe(998);
    expect(node.a).toMatch(/^…\[cut: nested 100,002 levels deep, deeper than 1,000; raw_lines returns the line\]$/);
    const events = (await runTool(findTool('get_events')!, { session_id: CC, fields: ['toolUseResult'] }, { store })) as Record<string, any>;
    expect(JSON.stringify(events)).toContain('…[cut');
  });
});
