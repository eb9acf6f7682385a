import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { copyFixture, FIXTURES, tempDir } from '../../../test/helpers.js';
import { cp, writePlaneRoot, type PlaneEntry } from '../../../test/plane-root.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { listSessions } from './index.js';

type Item = Record<string, any>;

/** A store holding one Control Plane root written from `entries`. */
async function planeStore(entries: PlaneEntry[]): Promise<SqliteStore> {
  const store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, [writePlaneRoot(tempDir('hs-plane-'), entries)]);
  return store;
}

const list = (store: SqliteStore, args: unknown = {}) => runTool(listSessions, args, { store }) as Promise<Record<string, any>>;
const byId = (r: Record<string, any>, id: string): Item => (r.sessions as Item[]).find((s) => s.session_id === id)!;

describe('TestListSessions', () => {
  it('test_list_sessions_returns_sessions: two sessions in ho2m give two rows with their ids', async () => {
    const store = await planeStore([cp.sessionStart('SES-AAAA0001', 0), cp.sessionStart('SES-AAAA0002', 10), cp.sessionEnd('SES-AAAA0001', 0, 20)]);
    const r = await list(store);
    expect(r).toMatchObject({ status: 'ok', count: 2, returned: 2, limit: 20, offset: 0, has_more: false, next_offset: null });
    expect((r.sessions as Item[]).map((s) => s.session_id).sort()).toEqual(['SES-AAAA0001', 'SES-AAAA0002']);
    for (const s of r.sessions as Item[]) {
      for (const field of ['session_id', 'started_at', 'ended_at', 'duration_seconds', 'turn_count', 'status', 'first_user_message', 'last_response_preview']) {
        expect(s).toHaveProperty(field);
      }
      expect(s.format).toBe('control-plane');
    }
  });

  it('test_list_sessions_includes_turn_count: three TURN_RECORDED entries → turn_count 3', async () => {
    const store = await planeStore([
      cp.sessionStart('SES-TURN0001', 0),
      cp.turn('SES-TURN0001', 1, 'one', 'a', 1),
      cp.turn('SES-TURN0001', 2, 'two', 'b', 2),
      cp.turn('SES-TURN0001', 3, 'three', 'c', 3),
    ]);
    expect(byId(await list(store), 'SES-TURN0001').turn_count).toBe(3);
  });

  it('test_list_sessions_status_completed: a SESSION_END makes it completed, with end time and duration', async () => {
    const store = await planeStore([cp.sessionStart('SES-DONE0001', 0), cp.turn('SES-DONE0001', 1, 'hi', 'hello', 60), cp.sessionEnd('SES-DONE0001', 1, 720)]);
    expect(byId(await list(store), 'SES-DONE0001')).toMatchObject({
      status: 'completed',
      started_at: '2026-02-17T14:30:00.000Z',
      ended_at: '2026-02-17T14:42:00.000Z',
      duration_seconds: 720,
    });
  });

  it('test_list_sessions_status_active: no SESSION_END makes it active, without end', async () => {
    const store = await planeStore([cp.sessionStart('SES-LIVE0001', 0), cp.turn('SES-LIVE0001', 1, 'hi', 'hello', 5)]);
    expect(byId(await list(store), 'SES-LIVE0001')).toMatchObject({ status: 'active', ended_at: null, duration_seconds: null });
  });

  it('status errored when the last ho2m entry is DEGRADATION, even if governance entries follow', async () => {
    const store = await planeStore([
      cp.sessionStart('SES-ERR00001', 0),
      cp.degradation('SES-ERR00001', 'HO1 dispatch failed', 1),
      cp.exchange('SES-ERR00001', 'WO-SES-ERR00001-001', { input: 1, output: 1 }, 2),
      cp.budgetDebit('SES-ERR00001', 'WO-SES-ERR00001-001', 1, 1, 3),
      // A later ho2m entry clears it; a SESSION_END wins over everything.
      cp.sessionStart('SES-ERR00002', 0),
      cp.degradation('SES-ERR00002', 'HO1 dispatch failed', 1),
      cp.turn('SES-ERR00002', 1, 'still there?', 'yes', 2),
      cp.sessionStart('SES-ERR00003', 0),
      cp.degradation('SES-ERR00003', 'HO1 dispatch failed', 1),
      cp.sessionEnd('SES-ERR00003', 0, 2),
    ]);
    const r = await list(store);
    expect(byId(r, 'SES-ERR00001').status).toBe('errored');
    expect(byId(r, 'SES-ERR00002').status).toBe('active');
    expect(byId(r, 'SES-ERR00003').status).toBe('completed');
    expect((await list(store, { status: 'errored' })).sessions.map((s: Item) => s.session_id)).toEqual(['SES-ERR00001']);
  });

  it('test_list_sessions_pagination: 5 sessions, limit=2, offset=2 → the 3rd and 4th rows (newest first)', async () => {
    const ids = [1, 2, 3, 4, 5].map((n) => `SES-PAGE000${n}`);
    const store = await planeStore(ids.map((id, i) => cp.sessionStart(id, i * 60)));
    const all = await list(store);
    expect(all.sessions.map((s: Item) => s.session_id)).toEqual([...ids].reverse());
    const r = await list(store, { limit: 2, offset: 2 });
    expect(r).toMatchObject({ count: 5, returned: 2, limit: 2, offset: 2, has_more: true, next_offset: 4 });
    expect(r.sessions.map((s: Item) => s.session_id)).toEqual(['SES-PAGE0003', 'SES-PAGE0002']);
    expect(r.sessions).toEqual(all.sessions.slice(2, 4));
    expect(await list(store, { limit: 2, offset: 4 })).toMatchObject({ returned: 1, has_more: false, next_offset: null });
  });

  it('test_list_sessions_first_message_preview: the first turn gives first_user_message, the last its response preview', async () => {
    const store = await planeStore([
      cp.sessionStart('SES-MSG00001', 0),
      cp.turn('SES-MSG00001', 1, 'hello', 'Hi! How can I help?', 1),
      cp.turn('SES-MSG00001', 2, 'bye', 'Goodbye! Session ended.', 2),
    ]);
    expect(byId(await list(store), 'SES-MSG00001')).toMatchObject({ first_user_message: 'hello', last_response_preview: 'Goodbye! Session ended.' });
  });

  it('states the allowed range for a bad limit', async () => {
    const store = await planeStore([cp.sessionStart('SES-LIM00001', 0)]);
    for (const limit of [0, -1, 'x', 501, 2.5]) {
      const r = await list(store, { limit });
      expect(r).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
      expect(r.error).toContain('1 to 500');
    }
    expect(await list(store, { limit: 500 })).toMatchObject({ status: 'ok', count: 1 });
    expect(await list(store, { bogus: 1 })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
  });
});

describe('list_sessions over the fixtures', () => {
  let store: SqliteStore;
  beforeAll(async () => {
    store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
    await ingestPaths(store, [copyFixture('control-plane/normal'), copyFixture('claude-code'), copyFixture('amplifier/normal')]);
  }, 60_000);

  it('Control Plane normal: every session matches the manifest session table (status, turns, first message, times)', async () => {
    const manifest = JSON.parse(readFileSync(join(FIXTURES, 'control-plane/normal/manifest.json'), 'utf8'));
    const r = await list(store, { format: 'control-plane', limit: 500 });
    expect(r.count).toBe(manifest.session_table.length);
    for (const want of manifest.session_table) {
      const got = byId(r, want.session_id);
      expect(got, want.session_id).toMatchObject({
        status: want.expected_status,
        turn_count: want.turn_count,
        first_user_message: want.first_user_message,
      });
      expect(Date.parse(got.started_at)).toBe(Math.floor(Date.parse(want.started_at)));
      expect(got.ended_at === null ? null : Date.parse(got.ended_at)).toBe(want.ended_at === null ? null : Date.parse(want.ended_at));
    }
  });

  it('Claude Code: every session of expected.json is listed, sub-agents as children, statuses from how each transcript ends', async () => {
    const expected = JSON.parse(readFileSync(join(FIXTURES, 'claude-code/expected.json'), 'utf8'));
    const top = await list(store, { format: 'claude-code', top_level_only: true, limit: 500 });
    expect((top.sessions as Item[]).map((s) => s.session_id).sort()).toEqual(Object.keys(expected.sessions).sort());
    const statuses = Object.fromEntries((top.sessions as Item[]).map((s) => [s.session_id, s.status]));
    expect(statuses).toEqual({
      '55604662-cf2a-4331-851a-ec234028f8ca': 'interrupted', // ends "[Request interrupted by user for tool use]"
      'd6e0bada-1959-4eec-a9d2-0bfade768d8f': 'interrupted', // ends "[Request interrupted by user]"
      '491e126e-1e71-469c-ade2-fcc8af567c74': 'completed',
      '8463c716-a2ea-4c14-9efa-87158ebd9f20': 'completed',
      '5c0375b4-57a5-4f26-b12d-d022ee4e51b7': 'completed',
      '1af7fc5e-8455-4414-9ccd-011d40f70b2a': 'completed', // stop_reason end_turn
    });
    expect(byId(top, '55604662-cf2a-4331-851a-ec234028f8ca')).toMatchObject({ turn_count: 1, first_user_message: 'mix phx.server doesnt seem to start' });
    const all = await list(store, { format: 'claude-code', top_level_only: false, limit: 500 });
    const children = (all.sessions as Item[]).filter((s) => s.parent_id !== null);
    expect(all.count).toBe(top.count + children.length);
    expect(byId(all, '8463c716-a2ea-4c14-9efa-87158ebd9f20:a7be2f0')).toMatchObject({
      parent_id: '8463c716-a2ea-4c14-9efa-87158ebd9f20',
      kind: 'subagent',
      status: 'completed',
    });
    expect(byId(all, '8463c716-a2ea-4c14-9efa-87158ebd9f20:acompact-f46190')).toMatchObject({ kind: 'compaction' });
  });

  it('Amplifier: session:end → completed; a tool call left without result and no end → interrupted', async () => {
    const r = await list(store, { format: 'amplifier', limit: 500 });
    expect(byId(r, 'f31d2334-3e59-4fd1-8a90-ee46c04cd0c2').status).toBe('completed');
    // Still running when copied: its last turn stops at a tool:pre with no tool:post (expected.json: unfinished 1).
    expect(byId(r, '2e8f787d-d943-450c-a4e5-66879c192e69').status).toBe('interrupted');
  });

  it('top_level_only hides sub-agents and forks; their tokens still count in their parents', async () => {
    const top = await list(store, { top_level_only: true, limit: 500 });
    expect((top.sessions as Item[]).every((s) => s.parent_id === null)).toBe(true);
    const all = await list(store, { top_level_only: false, limit: 500 });
    expect(all.count).toBeGreaterThan(top.count);
    // The analyst's view is the default: top_level_only unless asked otherwise.
    expect(await list(store, { limit: 500 })).toEqual(top);
    const parent = byId(top, '8463c716-a2ea-4c14-9efa-87158ebd9f20');
    const child = byId(all, '8463c716-a2ea-4c14-9efa-87158ebd9f20:a7be2f0');
    expect(child.tokens.total).toBeGreaterThan(0);
    expect(parent.tokens).toEqual(byId(all, '8463c716-a2ea-4c14-9efa-87158ebd9f20').tokens);
    expect(parent.children).toBeGreaterThanOrEqual(2);
  });

  it('answers in the shape its output schema declares', async () => {
    const r = await list(store, { limit: 500 });
    expect(() => listSessions.output.parse(JSON.parse(JSON.stringify(r)))).not.toThrow();
  });

  it('is deterministic: the same call twice gives byte-identical JSON', async () => {
    for (const args of [{ limit: 500 }, { limit: 7, offset: 3, top_level_only: true }, { format: 'control-plane', status: 'active' }]) {
      expect(JSON.stringify(await list(store, args))).toBe(JSON.stringify(await list(store, args)));
    }
  });

  const ids = (r: Record<string, any>) => (r.sessions as Item[]).map((s) => s.session_id);
  const counts = async (args: Record<string, unknown>) => {
    const r = await list(store, { limit: 500, ...args });
    expect(r.status, JSON.stringify(r)).toBe('ok');
    const byFormat: Record<string, number> = {};
    for (const s of r.sessions as Item[]) byFormat[s.format] = (byFormat[s.format] ?? 0) + 1;
    return byFormat;
  };

  afterEach(() => {
    vi.useRealTimers();
  });

  it('date_range YYYY-MM-DD:YYYY-MM-DD keeps sessions started on those UTC days, both included', async () => {
    expect(await counts({ date_range: '2026-02-13:2026-02-14' })).toEqual({ 'control-plane': 12 });
    expect(await counts({ date_range: '2026-02-14:2026-02-14' })).toEqual({ 'control-plane': 5 });
    expect(await counts({ date_range: '2026-02-14' })).toEqual({ 'control-plane': 5 });
    expect(await counts({ date_range: '2026-02-10:2026-02-11' })).toEqual({ 'claude-code': 4 });
    expect(await counts({ date_range: '2026-02-10:2026-02-11', top_level_only: false })).toEqual({ 'claude-code': 6 });
    expect(await counts({ date_range: '2024-01-01:2024-12-31' })).toEqual({});
    const r = await list(store, { date_range: '2026-02-10:2026-02-14', limit: 500 });
    for (const s of r.sessions as Item[]) expect(s.started_at >= '2026-02-10' && s.started_at < '2026-02-15', s.session_id).toBe(true);
  });

  it('date_range today, yesterday, last_week, last_month follow the clock (fixed here), in UTC days', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-02-14T10:00:00Z'));
    expect(await counts({ date_range: 'today' })).toEqual({ 'control-plane': 5 });
    expect(await counts({ date_range: 'yesterday' })).toEqual({ 'control-plane': 7 });
    expect(await counts({ date_range: 'last_week' })).toEqual({ 'control-plane': 12, 'claude-code': 4 });
    vi.setSystemTime(new Date('2026-06-27T23:59:59Z'));
    expect(await counts({ date_range: 'last_month' })).toEqual({ amplifier: 5 });
    expect(await counts({ date_range: 'last_month', format: 'amplifier', top_level_only: false })).toEqual({ amplifier: 8 });
    vi.setSystemTime(new Date('2026-06-28T00:00:00Z'));
    expect(await counts({ date_range: 'today' })).toEqual({});
  });

  it('model keeps sessions that used a model whose name contains the text, case-insensitive', async () => {
    expect(await counts({ model: 'opus-4-6' })).toEqual({ 'claude-code': 4 });
    expect(await counts({ model: 'OPUS-4-6', top_level_only: false })).toEqual({ 'claude-code': 5 });
    // 491e126e's own progress lines record its sub-agent's haiku calls (formats.md, token usage traps).
    expect(await counts({ model: 'haiku' })).toEqual({ 'claude-code': 1 });
    expect(await counts({ model: 'haiku', top_level_only: false })).toEqual({ 'claude-code': 2 });
    expect(await counts({ model: 'claude-sonnet-4' })).toEqual({ 'claude-code': 2, 'control-plane': 12 });
    expect(await counts({ model: 'claude-sonnet-4-20250514' })).toEqual({ 'claude-code': 2 });
    expect(await counts({ model: 'claude-opus-4-8', format: 'amplifier' })).toEqual({ amplifier: 5 });
    // LIKE wildcards in the text are literal.
    expect(await counts({ model: '%' })).toEqual({});
    expect(await counts({ model: 'claude_opus' })).toEqual({});
    const r = await list(store, { model: 'sonnet', project: '-path-to-Demo', date_range: '2025-09-01:2025-09-30', limit: 500 });
    expect(ids(r).sort()).toEqual(['1af7fc5e-8455-4414-9ccd-011d40f70b2a', '5c0375b4-57a5-4f26-b12d-d022ee4e51b7']);
  });

  it('a malformed or inverted date_range, or an empty model, is an error naming the accepted forms', async () => {
    for (const date_range of ['last week', '2026-02-30:2026-03-01', '2026/02/01:2026/02/03', '2026-02-01:', 'soon']) {
      const r = await list(store, { date_range });
      expect(r, date_range).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
      expect(r.error).toContain('today, yesterday, last_week');
      expect(r.error).toContain('YYYY-MM-DD:YYYY-MM-DD');
    }
    expect(await list(store, { date_range: '2026-02-14:2026-02-13' })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS', error: expect.stringContaining('ends before it starts') });
    expect(await list(store, { model: '' })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
  });
});
