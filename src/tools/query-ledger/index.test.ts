import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { cp, writePlaneRoot } from '../../../test/plane-root.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { cutCodePoints, queryLedger } from './index.js';

let store: SqliteStore;
type Result = Record<string, any>;
const call = (args: unknown) => runTool(queryLedger, args, { store }) as Promise<Result>;

// 199 ASCII characters then an emoji (two UTF-16 units): Python's [:200] keeps the whole emoji.
const LONG_REASON = `${'r'.repeat(199)}\u{1F600}${'tail'.repeat(50)}`;

beforeAll(async () => {
  const plane = writePlaneRoot(tempDir('hs-plane-'), [
    cp.sessionStart('SES-A', 0),
    cp.turn('SES-A', 1, 'hello', 'hi', 1),
    cp.turn('SES-A', 2, 'more', 'sure', 2),
    cp.llmCall('SES-A', 'WO-SES-A-001', 10, 5, 3),
    cp.toolCall('SES-A', 'WO-SES-A-001', 'list_files', true, 4),
    { ledger: 'governance', event_type: 'DISPATCH', submission_id: 'PRC-CLASSIFY-001', decision: 'OK', reason: 'first', at: 5 },
    cp.exchange('SES-A', 'WO-SES-A-001', { input: 10, output: 5 }, 6),
    { ledger: 'governance', event_type: 'DEGRADATION', decision: 'DEGRADED', reason: LONG_REASON, metadata: { zeta: 1, alpha: 2, Mid: 3 }, at: 7 },
    { ledger: 'governance', event_type: 'PROMPT_REJECTED', decision: 'REJECTED', reason: 'password=hunter2hunter2 leaked', at: 8 },
  ]);
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, [plane]);
});

describe('TestQueryLedgerSelection', () => {
  it('test_query_ledger_default_governance: no ledger param reads governance', async () => {
    const r = await call({});
    expect(r.status).toBe('ok');
    expect(r.entries.map((e: Result) => e.event_type)).toEqual(['DISPATCH', 'EXCHANGE', 'DEGRADATION', 'PROMPT_REJECTED']);
    expect(new Set(r.entries.map((e: Result) => e.file))).toEqual(new Set(['HOT/ledger/governance.jsonl']));
  });

  it('test_query_ledger_ho2m: ledger=ho2m reads the HO2 ledger', async () => {
    const r = await call({ ledger: 'ho2m', event_type: 'TURN_RECORDED' });
    expect(r).toMatchObject({ status: 'ok', source: 'ho2m', count: 2 });
    expect(r.entries.map((e: Result) => [e.file, e.reason])).toEqual([
      ['HO2/ledger/ho2m.jsonl', 'turn 1'],
      ['HO2/ledger/ho2m.jsonl', 'turn 2'],
    ]);
  });

  it('test_query_ledger_ho1m: ledger=ho1m reads the HO1 ledger', async () => {
    const r = await call({ ledger: 'ho1m' });
    expect(r).toMatchObject({ status: 'ok', source: 'ho1m', count: 2 });
    expect(r.entries.map((e: Result) => e.event_type)).toEqual(['LLM_CALL', 'TOOL_CALL']);
  });

  it('test_query_ledger_invalid_source: an unknown ledger is an error naming the valid ones', async () => {
    expect(await call({ ledger: 'bogus' })).toEqual({
      status: 'error',
      error: 'Unknown ledger: bogus. Valid: governance, ho2m, ho1m.',
      code: 'UNKNOWN_LEDGER',
    });
  });

  it('test_query_ledger_returns_source_field: the result names its ledger', async () => {
    expect((await call({})).source).toBe('governance');
    expect((await call({ ledger: 'ho1m' })).source).toBe('ho1m');
  });
});

describe('query_ledger', () => {
  it('returns the last max_entries entries, oldest first; count is the number returned, total every match', async () => {
    const r = await call({ max_entries: 2 });
    expect(r).toMatchObject({ count: 2, total: 4, returned: 2, limit: 2, offset: 2, has_more: false, next_offset: null });
    expect(r.entries.map((e: Result) => e.event_type)).toEqual(['DEGRADATION', 'PROMPT_REJECTED']);
    expect((await call({ limit: 1 })).entries.map((e: Result) => e.event_type)).toEqual(['PROMPT_REJECTED']);
    expect((await call({ max_entries: 500 })).count).toBe(4);
  });

  it('cuts reason at 200 characters (code points), lists metadata_keys sorted, and keeps the seed fields', async () => {
    const [e] = (await call({ event_type: 'DEGRADATION' })).entries;
    expect(e.reason).toBe(`${'r'.repeat(199)}\u{1F600}`);
    expect(e.metadata_keys).toEqual(['Mid', 'alpha', 'zeta']);
    expect(e).not.toHaveProperty('metadata');
    expect(Object.keys(e).slice(0, 7)).toEqual(['id', 'event_type', 'submission_id', 'decision', 'reason', 'timestamp', 'timestamp_utc']);
    expect(e).toMatchObject({ id: 'LED-00000008', timestamp: '2026-02-17T14:30:07+00:00', line_number: 3 });
    const [tool] = (await call({ ledger: 'ho1m', event_type: 'TOOL_CALL' })).entries;
    expect(tool.metadata_keys).toEqual([...tool.metadata_keys].sort());
    expect(tool.metadata_keys).toContain('tool_id');
  });

  it('redacts reason unless redact is false', async () => {
    expect((await call({ event_type: 'PROMPT_REJECTED' })).entries[0].reason).toBe('password=[REDACTED] leaked');
    expect((await call({ event_type: 'PROMPT_REJECTED', redact: false })).entries[0].reason).toBe('password=hunter2hunter2 leaked');
  });

  it('answers 0 entries with the event types present for a type that matches nothing', async () => {
    const r = await call({ event_type: 'EXCHANG' });
    expect(r).toMatchObject({ status: 'ok', count: 0, total: 0, entries: [] });
    expect(r.event_types.map((t: Result) => t.type)).toEqual(['DEGRADATION', 'DISPATCH', 'EXCHANGE', 'PROMPT_REJECTED']);
  });

  it('refuses bad max_entries, and cuts to max_bytes', async () => {
    for (const bad of [0, -1, 'x', 501]) expect((await call({ max_entries: bad })).code).toBe('INVALID_ARGUMENTS');
    expect(await call({ max_bytes: 200 })).toMatchObject({ status: 'ok', count: 0, total: 4, entries: [], truncated: true });
    expect(JSON.stringify(await call({}))).toBe(JSON.stringify(await call({})));
  });

  it('cutCodePoints never splits a surrogate pair', () => {
    expect(cutCodePoints('ab\u{1F600}c', 3)).toBe('ab\u{1F600}');
    expect(cutCodePoints('ab', 5)).toBe('ab');
  });
});
