import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { cp, writePlaneRoot, type PlaneEntry } from '../../../test/plane-root.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { queryLedgerFull } from './index.js';

const CC_SESSION = '55604662-cf2a-4331-851a-ec234028f8ca';
const SECRET = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz';

let store: SqliteStore;
type Result = Record<string, any>;
const call = (args: unknown, s: SqliteStore = store) => runTool(queryLedgerFull, args, { store: s }) as Promise<Result>;

/** Twenty governance entries, numbered 1..20 in their reason. */
const twenty: PlaneEntry[] = Array.from({ length: 20 }, (_, i) => ({
  ...cp.exchange(i % 2 ? 'SES-A' : 'SES-B', 'WO-SES-A-001', { input: 10 + i, output: 5, prompt: `prompt ${i + 1} key ${SECRET}` }, 10 + i),
  reason: `entry ${i + 1}`,
}));

beforeAll(async () => {
  const plane = writePlaneRoot(tempDir('hs-plane-'), [
    cp.sessionStart('SES-A', 0),
    cp.turn('SES-A', 1, 'hello', 'hi', 1),
    cp.llmCall('SES-A', 'WO-SES-A-001', 10, 5, 2),
    cp.sessionStart('SES-B', 3),
    ...twenty,
  ]);
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, [plane, copyFixture('claude-code')]);
});

describe('TestQueryLedgerFull', () => {
  it('test_full_returns_metadata: metadata is the full dict, not its keys', async () => {
    const r = await call({ max_entries: 1 });
    const e = r.entries[0];
    expect(e.metadata).toMatchObject({ session_id: 'SES-B', work_order_id: 'WO-SES-A-001', input_tokens: 10, output_tokens: 5, model_id: 'claude-sonnet-4-5' });
    expect(e.metadata.prompt).toBe('prompt 1 key [REDACTED:api_key]');
    expect(e).not.toHaveProperty('metadata_keys');
    expect(e).toMatchObject({ id: 'LED-00000005', event_type: 'EXCHANGE', submission_id: 'PRC-SYNTHESIZE-001', decision: 'SUCCESS', reason: 'entry 1' });
    expect(e).toMatchObject({ timestamp: '2026-02-17T14:30:10+00:00', timestamp_utc: '2026-02-17T14:30:10.000Z', session_id: 'SES-B' });
    expect(e).toMatchObject({ file: 'HOT/ledger/governance.jsonl', line_number: 1 });
  });

  it('test_full_pagination: 20 entries, offset=5, max_entries=3 -> entries 6-8', async () => {
    const r = await call({ ledger: 'governance', offset: 5, max_entries: 3 });
    expect(r.entries.map((e: Result) => e.reason)).toEqual(['entry 6', 'entry 7', 'entry 8']);
    expect(r.entries.map((e: Result) => e.line_number)).toEqual([6, 7, 8]);
    expect(r).toMatchObject({ count: 20, limit: 3, offset: 5, returned: 3, has_more: true, next_offset: 8 });
    const last = await call({ offset: 18, limit: 5 });
    expect(last).toMatchObject({ count: 20, returned: 2, has_more: false, next_offset: null });
  });

  it('test_full_default_governance: no ledger reads governance', async () => {
    const r = await call({});
    expect(r).toMatchObject({ status: 'ok', source: 'governance', count: 20, returned: 10 });
    expect(new Set(r.entries.map((e: Result) => e.file))).toEqual(new Set(['HOT/ledger/governance.jsonl']));
    expect((await call({ ledger: 'ho2m' })).entries.map((e: Result) => e.event_type)).toEqual(['SESSION_START', 'TURN_RECORDED', 'SESSION_START']);
  });

  it('filters by event type and session; an unknown type answers 0 with the types present', async () => {
    expect((await call({ ledger: 'ho1m', event_type: 'LLM_CALL' })).count).toBe(1);
    const a = await call({ session_id: 'SES-A', max_entries: 500 });
    expect(a).toMatchObject({ source: 'governance', session_id: 'SES-A', count: 10 });
    expect(a.entries.every((e: Result) => e.session_id === 'SES-A')).toBe(true);
    const typo = await call({ ledger: 'ho2m', event_type: 'TURN_RECORDD' });
    expect(typo).toMatchObject({ status: 'ok', count: 0, entries: [] });
    expect(typo.event_types).toEqual([
      { type: 'SESSION_START', count: 2 },
      { type: 'TURN_RECORDED', count: 1 },
    ]);
  });

  it('returns the exact text with redact: false', async () => {
    const r = await call({ max_entries: 1, redact: false });
    expect(r.entries[0].metadata.prompt).toBe(`prompt 1 key ${SECRET}`);
  });

  it('maps a Claude Code transcript line to the same shape', async () => {
    const r = await call({ session_id: CC_SESSION, event_type: 'user', max_entries: 1 });
    expect(r).toMatchObject({ status: 'ok', source: 'transcript' });
    const e = r.entries[0];
    expect(e).toMatchObject({ event_type: 'user', submission_id: null, decision: null, reason: null, line_number: 4 });
    expect(e.id).toBe(e.metadata.uuid);
    expect(e.timestamp).toBe(e.metadata.timestamp);
    expect(e.metadata).toMatchObject({ type: 'user', sessionId: CC_SESSION });
  });

  it('accepts limit as max_entries and refuses bad counts and conflicting ones', async () => {
    expect((await call({ limit: 2 })).returned).toBe(2);
    for (const bad of [0, -1, 'x', 501]) {
      expect(await call({ max_entries: bad }), String(bad)).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS', error: expect.stringMatching(/max_entries must be .*1 to 500/) });
      expect(await call({ limit: bad })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS', error: expect.stringMatching(/limit must be .*1 to 500/) });
    }
    expect(await call({ max_entries: 2, limit: 3 })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
    expect(await call({ ledger: 'bogus' })).toMatchObject({ status: 'error', code: 'UNKNOWN_LEDGER' });
    expect(await call({ session_id: 'SES-NOPE' })).toMatchObject({ status: 'error', code: 'SESSION_NOT_FOUND' });
  });

  it('cuts to max_bytes (zero rows when one does not fit) and answers identically twice', async () => {
    expect(await call({ max_bytes: 300 })).toMatchObject({ status: 'ok', count: 20, returned: 0, entries: [], truncated: true, next_offset: 0 });
    const cut = await call({ max_entries: 10, max_bytes: 3000 });
    expect(cut.truncated).toBe(true);
    expect(cut.returned).toBeGreaterThan(0);
    expect(Buffer.byteLength(JSON.stringify(cut))).toBeLessThanOrEqual(3000);
    expect(JSON.stringify(await call({ offset: 3 }))).toBe(JSON.stringify(await call({ offset: 3 })));
  });

  it('needs a root when several plane roots are in the store', async () => {
    const two = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    const a = writePlaneRoot(tempDir('hs-plane-'), [cp.sessionStart('SES-1', 0)]);
    const b = writePlaneRoot(tempDir('hs-plane-'), [cp.sessionStart('SES-2', 0)]);
    await ingestPaths(two, [a, b]);
    expect(await call({ ledger: 'ho2m' }, two)).toMatchObject({ status: 'error', code: 'AMBIGUOUS_ROOT' });
    expect((await call({ ledger: 'ho2m', root: b }, two)).entries[0].submission_id).toBe('SES-2');
    await two.close();
  });
});
