// analyze_events over the shared fixtures of every format: usage equals each session's own
// tokens, the timeline has one row per counted turn, and errors cite their evidence.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../../test/helpers.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { SessionRow } from '../../store/store.js';
import { runTool } from '../tool.js';
import { findTool } from '../registry.js';
import { analyzeEvents } from './index.js';

type Result = Record<string, any>;

let store: SqliteStore;
let sessions: SessionRow[];
const call = (args: unknown) => runTool(analyzeEvents, args, { store }) as Promise<Result>;

beforeAll(async () => {
  store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, ['control-plane/normal', 'control-plane/edge', 'claude-code', 'amplifier/normal', 'amplifier/edge'].map(copyFixture));
  sessions = (await store.listSessions({ limit: 10_000, offset: 0 })).sessions;
});
afterAll(() => store.close());

describe('usage', () => {
  it('analyze usage tokens equal the session row\'s own tokens (tokensOwn), for every session of every format', async () => {
    expect(new Set(sessions.map((s) => s.format))).toEqual(new Set(['control-plane', 'claude-code', 'amplifier']));
    for (const s of sessions) {
      const r = await call({ session_id: s.id, analysis_type: 'usage' });
      expect(r.status, s.id).toBe('ok');
      const own = s.tokensOwn;
      expect(r.tokens, s.id).toEqual({
        input: own.input,
        output: own.output,
        cache_write: own.cacheWrite,
        cache_read: own.cacheRead,
        total: own.input + own.output + own.cacheWrite + own.cacheRead,
      });
      expect(r.total_input_tokens, s.id).toBe(own.input);
      expect(r.cost.mode, s.id).toBe('calculate');
    }
  });

  it('prices a session and its sub-agents to the cent of usage_report, and per turn to the session total', async () => {
    const report = (await runTool(findTool('usage_report')!, { group_by: 'session', limit: 500 }, { store })) as Result;
    const rows = new Map<string, Result>(report.rows.map((row: Result) => [row.session_id, row]));
    let priced = 0;
    for (const s of sessions.filter((x) => x.parentId === null)) {
      const family = [s.id, ...(await store.sessionDescendants(s.id))];
      let sum = 0;
      let unpriced = false;
      for (const id of family) {
        const r = await call({ session_id: id, analysis_type: 'usage' });
        if (r.cost.cost_usd !== null) sum += r.cost.cost_usd;
        if (r.cost.partial) unpriced = true;
        if (r.cost.unpriced_models.length > 0) expect(r.cost.partial, id).toBe(true);
      }
      const row = rows.get(s.id);
      if (!row) continue; // no LLM calls at all
      expect(sum, s.id).toBeCloseTo(row.cost_usd ?? 0, 6);
      expect(unpriced, s.id).toBe(row.partial);
      const t = await call({ session_id: s.id, analysis_type: 'timeline', limit: 2000, max_bytes: 10_000_000 });
      const own = await call({ session_id: s.id, analysis_type: 'usage' });
      const turns = [...t.turns, t.before_first_turn, t.after_last_turn].filter(Boolean) as Result[];
      const perTurn = turns.reduce((n, x) => n + (x.cost_usd ?? 0), 0);
      expect(perTurn, s.id).toBeCloseTo(own.cost.cost_usd ?? 0, 6);
      if (row.cost_usd) priced++;
    }
    expect(priced).toBeGreaterThan(3);
  });

  it('display mode uses only costs the log recorded: Claude Code records none, so its cost is null and partial', async () => {
    const r = await call({ session_id: '491e126e', analysis_type: 'usage', cost_mode: 'display' });
    expect(r.cost).toMatchObject({ cost_usd: null, partial: true, mode: 'display' });
    expect(r.cost.uncosted_calls).toBe(r.llm_requests);
  });

  it('counts LLM requests once per usage key, tool calls by name, and models', async () => {
    const cc = sessions.find((s) => s.id === '491e126e-1e71-469c-ade2-fcc8af567c74')!;
    const r = await call({ session_id: cc.id, analysis: 'usage' });
    expect(r.llm_requests).toBe(cc.llmCalls);
    expect(r.tool_calls).toBe(cc.toolCalls);
    expect(Object.values(r.tool_calls_by_name as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(cc.toolCalls);
    expect(r.models.map((m: { model: string }) => m.model).sort()).toEqual([...cc.models].sort());
  });
});

describe('timeline', () => {
  it('timeline turns count equals turn_count, for every session of every format', async () => {
    for (const s of sessions) {
      const r = await call({ session_id: s.id, analysis_type: 'timeline', limit: 2000, max_bytes: 10_000_000 });
      expect(r.status, s.id).toBe('ok');
      expect(r.turn_count, s.id).toBe(s.turnCount);
      expect(r.turns, s.id).toHaveLength(s.turnCount);
    }
  });

  it('per-turn tokens add up to the session\'s own tokens (each LLM call in one turn)', async () => {
    for (const s of sessions) {
      const r = await call({ session_id: s.id, analysis_type: 'timeline', limit: 2000, max_bytes: 10_000_000 });
      const parts = [...r.turns, r.before_first_turn, r.after_last_turn].filter(Boolean);
      const total = parts.reduce((sum: number, t: Result) => sum + t.tokens.total, 0);
      const own = s.tokensOwn;
      expect(total, s.id).toBe(own.input + own.output + own.cacheWrite + own.cacheRead);
    }
  });

  it('gives user and assistant times per turn (Control Plane: turn numbers from TURN_RECORDED)', async () => {
    const r = await call({ session_id: 'SES-8ACD6A79', analysis_type: 'timeline' });
    expect(r.turns.map((t: Result) => t.turn_num)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const t of r.turns) {
      expect(t.user_ts).toMatch(/^\d{4}-\d\d-\d\dT/u);
      expect(t.assistant_last_ts >= t.user_ts).toBe(true);
    }
    const cc = await call({ session_id: '491e126e', analysis_type: 'timeline' });
    expect(cc.turns[0].turn_num).toBe(1);
    expect(cc.turns[0].assistant_ts >= cc.turns[0].user_ts).toBe(true);
    expect(cc.turns.some((t: Result) => t.tool_calls > 0)).toBe(true);
  });

  it('pages turns with limit/offset', async () => {
    const r = await call({ session_id: 'SES-8ACD6A79', analysis_type: 'timeline', limit: 2, offset: 2 });
    expect(r).toMatchObject({ count: 6, returned: 2, has_more: true, next_offset: 4 });
    expect(r.turns.map((t: Result) => t.turn_num)).toEqual([3, 4]);
  });
});

describe('summary and errors', () => {
  it('summary: counts by type sum to the session\'s events, with first/last and duration', async () => {
    for (const s of sessions) {
      const r = await call({ session_id: s.id, analysis_type: 'summary' });
      expect(r.total_events, s.id).toBe(s.eventCount);
      expect(Object.values(r.event_types as Record<string, number>).reduce((a, b) => a + b, 0), s.id).toBe(s.eventCount);
      if (r.first_event && r.last_event) expect(r.duration_ms, s.id).toBe(Date.parse(r.last_event) - Date.parse(r.first_event));
    }
  });

  it('errors: each error or warning has its message, place (ledger, file, line) and timestamp', async () => {
    const errored = sessions.find((s) => s.id === 'SES-28917E0E')!;
    const r = await call({ session_id: errored.id, analysis_type: 'errors' });
    expect(r.status).toBe('ok');
    expect(r.error_count).toBeGreaterThan(0);
    expect(r.count).toBe(r.error_count + r.warning_count);
    for (const e of r.errors) {
      expect(e.message.length).toBeGreaterThan(0);
      expect(e.message.length).toBeLessThanOrEqual(530);
      expect(e.ledger).toMatch(/^(ho2m|ho1m|governance)$/u);
      expect(e.file).toMatch(/\.jsonl$/u);
      expect(e.line_number).toBeGreaterThan(0);
      expect(e).toHaveProperty('ts');
    }
    expect(r.errors.some((e: Result) => e.event === 'DEGRADATION')).toBe(true);
  });
});

describe('bad input', () => {
  it('unknown session: SESSION_NOT_FOUND for every analysis', async () => {
    for (const analysis_type of ['summary', 'errors', 'timeline', 'usage']) {
      const r = await call({ session_id: 'no-such-session', analysis_type });
      expect(r).toMatchObject({ status: 'error', code: 'SESSION_NOT_FOUND' });
    }
  });

  it('a missing or unknown analysis, and a bad limit, are errors', async () => {
    expect(await call({ session_id: 'SES-8ACD6A79' })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
    expect(await call({ session_id: 'SES-8ACD6A79', analysis_type: 'cost' })).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
    for (const limit of [0, -1, 'x']) {
      const r = await call({ session_id: 'SES-8ACD6A79', analysis_type: 'errors', limit });
      expect(r).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
      expect(r.error).toContain('1 to 2000');
    }
  });

  it('determinism: the same call twice gives byte-identical JSON', async () => {
    for (const analysis_type of ['summary', 'errors', 'timeline', 'usage']) {
      const a = await call({ session_id: '8463c716', analysis_type });
      const b = await call({ session_id: '8463c716', analysis_type });
      expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    }
  });
});
