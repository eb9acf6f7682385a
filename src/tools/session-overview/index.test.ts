import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers.js';
import { cp, writePlaneRoot } from '../../../test/plane-root.js';
import { ingestPaths } from '../../ingest/ingest.js';
import { SqliteStore } from '../../store/sqlite/sqlite-store.js';
import { runTool } from '../tool.js';
import { sessionOverview } from './index.js';

type Result = Record<string, any>;

async function storeOf(paths: string[]): Promise<SqliteStore> {
  const store = new SqliteStore(join(tempDir('hs-db-'), 'h.db'));
  await ingestPaths(store, paths);
  return store;
}

const SECRET = 'sk-ant-api03-Zx81bQv0LmTn4Kd7Wq2Rs9Hc6Yf3Ja5E';
const W = (s: string, n: string) => `WO-${s}-${n}`;

/** The seed plan's sessions, written as the Control Plane writes them. */
function planeEntries() {
  const M = 'SES-MAIN';
  return [
    // SES-MAIN: two turns, five work orders (3 completed, 1 failed on budget, 1 open), 3 tool calls.
    cp.sessionStart(M, 0),
    cp.woPlanned(M, W(M, '001'), 'classify', 1),
    cp.exchange(M, W(M, '001'), { input: 100, output: 20 }, 2),
    cp.budgetDebit(M, W(M, '001'), 100, 20, 2),
    cp.llmCall(M, W(M, '001'), 100, 20, 2),
    cp.woCompleted(M, W(M, '001'), 3),
    cp.woPlanned(M, W(M, '002'), 'synthesize', 4),
    cp.exchange(M, W(M, '002'), { input: 300, output: 50 }, 5),
    cp.budgetDebit(M, W(M, '002'), 300, 50, 5),
    cp.llmCall(M, W(M, '002'), 300, 50, 5),
    cp.toolCall(M, W(M, '002'), 'list_packages', true, 6),
    cp.toolCall(M, W(M, '002'), 'read_file', true, 7),
    cp.toolCall(M, W(M, '002'), 'query_ledger', false, 8),
    cp.woCompleted(M, W(M, '002'), 9),
    cp.qualityGate(M, W(M, '002'), true, 10),
    cp.turn(M, 1, 'what frameworks are installed?', 'FMWK-000 and FMWK-001.', 11),
    cp.woPlanned(M, W(M, '003'), 'classify', 20),
    cp.exchange(M, W(M, '003'), { input: 80, output: 10 }, 21),
    cp.llmCall(M, W(M, '003'), 80, 10, 21),
    cp.woCompleted(M, W(M, '003'), 22),
    cp.woPlanned(M, W(M, '004'), 'synthesize', 23),
    cp.exchange(M, W(M, '004'), { input: 200, output: 40 }, 24),
    cp.budgetDebit(M, W(M, '004'), 200, 40, 24),
    cp.llmCall(M, W(M, '004'), 200, 40, 24),
    cp.budgetWarning(M, W(M, '004'), 120, 25),
    cp.woFailed(M, W(M, '004'), 'budget_exhausted', 'Only -40 tokens remain after tool calls', 26),
    cp.qualityGate(M, W(M, '004'), false, 27),
    cp.turn(M, 2, 'show me turn events', 'Here are the turn events.', 28),
    cp.woPlanned(M, W(M, '005'), 'synthesize', 29),
    cp.sessionEnd(M, 2, 30),
    // SES-EMPTY: started and ended, nothing in between.
    cp.sessionStart('SES-EMPTY', 40),
    cp.sessionEnd('SES-EMPTY', 0, 41),
    // SES-ERRONLY: no turn, only a degradation.
    cp.sessionStart('SES-ERRONLY', 50),
    cp.degradation('SES-ERRONLY', 'HO1 dispatch failed: connection reset', 51),
    // SES-CLASSIFY: two turns that only classified.
    cp.sessionStart('SES-CLASSIFY', 60),
    cp.woPlanned('SES-CLASSIFY', W('SES-CLASSIFY', '001'), 'classify', 61),
    cp.exchange('SES-CLASSIFY', W('SES-CLASSIFY', '001'), { input: 50, output: 5 }, 62),
    cp.woCompleted('SES-CLASSIFY', W('SES-CLASSIFY', '001'), 63),
    cp.turn('SES-CLASSIFY', 1, 'hi', 'Hello!', 64),
    cp.woPlanned('SES-CLASSIFY', W('SES-CLASSIFY', '002'), 'classify', 65),
    cp.exchange('SES-CLASSIFY', W('SES-CLASSIFY', '002'), { input: 50, output: 5 }, 66),
    cp.woCompleted('SES-CLASSIFY', W('SES-CLASSIFY', '002'), 67),
    cp.turn('SES-CLASSIFY', 2, 'thanks', 'You are welcome.', 68),
    cp.sessionEnd('SES-CLASSIFY', 2, 69),
    // SES-BUDGET: the work order ran out of budget and the supervisor degraded.
    cp.sessionStart('SES-BUDGET', 70),
    cp.woPlanned('SES-BUDGET', W('SES-BUDGET', '001'), 'synthesize', 71),
    cp.budgetWarning('SES-BUDGET', W('SES-BUDGET', '001'), 80, 72),
    cp.woFailed('SES-BUDGET', W('SES-BUDGET', '001'), 'budget_exhausted', 'Only -191 tokens remain after tool calls', 73),
    cp.degradation('SES-BUDGET', 'HO1 dispatch failed: budget_exhausted', 74),
    // SES-SECRET: a user pasted an API key.
    cp.sessionStart('SES-SECRET', 80),
    cp.turn('SES-SECRET', 1, `my key ${SECRET} stopped working`, 'Rotate it.', 81),
    cp.sessionEnd('SES-SECRET', 1, 82),
  ];
}

describe('session_overview on a Control Plane root (seed plan TestSessionOverview)', () => {
  let store: SqliteStore;
  const call = (args: unknown) => runTool(sessionOverview, args, { store }) as Promise<Result>;

  beforeAll(async () => {
    store = await storeOf([writePlaneRoot(tempDir('hs-plane-'), planeEntries())]);
  });

  it('test_overview_human_summary: the summary comes first and its about is a plain paragraph', async () => {
    const r = await call({ session_id: 'SES-MAIN' });
    expect(Object.keys(r)).toEqual(['status', 'summary', 'diagnostics']);
    expect(r.summary).toMatchObject({
      session_id: 'SES-MAIN',
      format: 'control-plane',
      started_at: '2026-02-17T14:30:00.000Z',
      ended_at: '2026-02-17T14:30:30.000Z',
      duration: '30 seconds',
      duration_seconds: 30,
      turn_count: 2,
      status: 'completed',
      top_user_messages: ['what frameworks are installed?', 'show me turn events'],
    });
    expect(r.summary.about).toBe(
      'The user started with “what frameworks are installed?” (two turns in all). ' +
        'It ran three synthesize and two classify work orders; the agent read one file, queried the ledgers once and called list_packages once. ' +
        'One work order failed: budget exhausted. One budget warning and one rejected quality-gate check occurred. ' +
        'One tool call failed (query_ledger). Session ended cleanly.',
    );
    expect(r.summary.about).not.toMatch(/[\n{}[\]]|WO-|LED-/);
  });

  it('test_overview_about_field_deterministic: the same session twice gives the same about and the same bytes', async () => {
    const a = await call({ session_id: 'SES-MAIN' });
    const b = await call({ session_id: 'SES-MAIN' });
    expect(a.summary.about).toBe(b.summary.about);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('test_overview_includes_errors: the failed tool call and the budget_exhausted failure are listed with their text and evidence', async () => {
    const r = await call({ session_id: 'SES-MAIN' });
    expect(r.summary.error_count).toBe(2);
    expect(r.summary.error_count).toBe(r.diagnostics.tools.failed + 1);
    expect(r.summary.errors).toEqual([
      {
        type: 'tool_error',
        message: 'permission denied',
        timestamp: '2026-02-17T14:30:08.000Z',
        source: 'ho1m',
        file: 'HO1/ledger/ho1m.jsonl',
        line_number: 6,
        session_id: 'SES-MAIN',
        tool_name: 'query_ledger',
        tool_call_id: null,
      },
      {
        type: 'budget_exhausted',
        message: 'WO-SES-MAIN-004 failed: budget_exhausted: Only -40 tokens remain after tool calls',
        timestamp: '2026-02-17T14:30:26.000Z',
        source: 'ho1m',
        file: 'HO1/ledger/ho1m.jsonl',
        line_number: 12,
        session_id: 'SES-MAIN',
        tool_name: null,
        tool_call_id: null,
      },
    ]);
    expect(r.summary.warnings.map((w: Result) => [w.type, w.source])).toEqual([
      ['budget_warning', 'ho1m'],
      ['quality_gate_rejected', 'ho2m'],
    ]);
    expect(r.summary.warnings[0].message).toBe('Budget warning: Budget low: 120 remaining');
    const budget = await call({ session_id: 'SES-BUDGET' });
    expect(budget.summary.status).toBe('errored');
    expect(budget.summary.errors.map((e: Result) => e.type)).toEqual(['budget_exhausted', 'degradation']);
    expect(budget.summary.about).toBe(
      'The session has no user turns. It ran one synthesize work order. One work order failed: budget exhausted. ' +
        'One degradation and one budget warning occurred. It ended when the budget was exhausted.',
    );
  });

  it('test_overview_token_totals: grand_total is the sum, each LLM call counted once (EXCHANGE, LLM_CALL and BUDGET_DEBIT all carry tokens)', async () => {
    const { diagnostics: d } = await call({ session_id: 'SES-MAIN' });
    const once = { input_total: 680, output_total: 120, cache_write_total: 0, cache_read_total: 0, grand_total: 800 };
    expect(d.tokens).toEqual({ ...once, own: once, by_child: [] });
    expect(d.llm_calls).toBe(4);
    expect(d.models).toEqual(['claude-sonnet-4-5']);
  });

  it('test_overview_tool_counts: three tool calls, by tool, with the failure', async () => {
    const { diagnostics: d } = await call({ session_id: 'SES-MAIN' });
    expect(d.tools.total_calls).toBe(3);
    expect(d.tools).toEqual({
      total_calls: 3,
      succeeded: 2,
      failed: 1,
      by_tool: {
        list_packages: { called: 1, succeeded: 1, failed: 0 },
        query_ledger: { called: 1, succeeded: 0, failed: 1 },
        read_file: { called: 1, succeeded: 1, failed: 0 },
      },
      counted_from: ['ho1m'],
    });
  });

  it('test_overview_wo_by_state: completed, failed and open work orders, by type; quality gates; events per ledger', async () => {
    const { diagnostics: d } = await call({ session_id: 'SES-MAIN' });
    expect(d.work_orders).toEqual({ total: 5, by_type: { synthesize: 3, classify: 2 }, by_state: { completed: 3, failed: 1, open: 1 } });
    expect(d.quality_gates).toEqual({ passed: 1, rejected: 1 });
    expect(d.ledger_events).toEqual({ ho2m: 11, ho1m: 12, governance: 7 });
  });

  it('test_overview_unknown_session: status error with SESSION_NOT_FOUND', async () => {
    const r = await call({ session_id: 'SES-NOPE' });
    expect(r).toMatchObject({ status: 'error', code: 'SESSION_NOT_FOUND' });
    expect(r.error).toContain('SES-NOPE');
  });

  it('reads well for a session with no turns', async () => {
    const r = await call({ session_id: 'SES-EMPTY' });
    expect(r.summary).toMatchObject({ status: 'completed', turn_count: 0, top_user_messages: [], errors: [], warnings: [] });
    expect(r.summary.about).toBe('The session has no user turns. Session ended cleanly.');
  });

  it('reads well for a session that only errored', async () => {
    const r = await call({ session_id: 'SES-ERRONLY' });
    expect(r.summary.status).toBe('errored');
    expect(r.summary.duration).toBeNull();
    expect(r.summary.about).toBe(
      'The session has no user turns. One degradation occurred. It degraded: HO1 dispatch failed: connection reset.',
    );
  });

  it('reads well for a session that only ran classify work orders', async () => {
    const r = await call({ session_id: 'SES-CLASSIFY' });
    expect(r.summary.about).toBe('The user started with “hi” (two turns in all). It ran two classify work orders. Session ended cleanly.');
    expect(r.diagnostics.work_orders).toEqual({ total: 2, by_type: { classify: 2 }, by_state: { completed: 2, failed: 0, open: 0 } });
  });

  it('redacts secrets in user messages by default and shows them with redact: false', async () => {
    const masked = await call({ session_id: 'SES-SECRET' });
    expect(JSON.stringify(masked)).not.toContain(SECRET);
    expect(masked.summary.top_user_messages).toEqual(['my key [REDACTED:api_key] stopped working']);
    expect(masked.summary.about).toContain('“my key [REDACTED:api_key] stopped working”');
    const plain = await call({ session_id: 'SES-SECRET', redact: false });
    expect(plain.summary.top_user_messages).toEqual([`my key ${SECRET} stopped working`]);
    expect(plain.summary.about).toContain(SECRET);
  });

  it('limits the lists and cuts them to max_bytes, never the about paragraph', async () => {
    const full = await call({ session_id: 'SES-MAIN' });
    const limited = await call({ session_id: 'SES-MAIN', top_user_messages: 1, errors_limit: 1 });
    expect(limited.summary.top_user_messages).toEqual(['what frameworks are installed?']);
    expect(limited.summary.warnings).toHaveLength(1);
    expect(limited.summary.warning_count).toBe(2);
    const size = Buffer.byteLength(JSON.stringify(full));
    const cut = await call({ session_id: 'SES-MAIN', max_bytes: size - 20 });
    expect(cut.truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(cut))).toBeLessThanOrEqual(size - 20);
    expect(cut.summary.about).toBe(full.summary.about);
    // The longest list loses an item first; errors, warnings and top_user_messages hold two each, so the first listed does.
    expect(cut.summary.errors).toHaveLength(1);
    expect(cut.summary.warnings).toHaveLength(2);
    const tiny = await call({ session_id: 'SES-MAIN', max_bytes: 100 });
    expect(tiny).toMatchObject({ status: 'ok', truncated: true, summary: { errors: [], warnings: [], top_user_messages: [] } });
    expect(tiny.summary.about).toBe(full.summary.about);
  });

  it('rejects limits out of range with a sentence that states the range', async () => {
    const zero = await call({ session_id: 'SES-MAIN', top_user_messages: 0 });
    expect(zero).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
    expect(zero.error).toContain('top_user_messages must be from 1 to 50');
    const many = await call({ session_id: 'SES-MAIN', errors_limit: 501 });
    expect(many.error).toContain('errors_limit must be from 1 to 500');
    expect(await call({})).toMatchObject({ status: 'error', code: 'INVALID_ARGUMENTS' });
  });
});
