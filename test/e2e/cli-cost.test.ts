// Cost where people look first: `hindsight show` and the `sessions` table, end to end through the
// built CLI on the Claude Code fixtures, equal to `hindsight usage --group session`; and the
// per-call series (analyze_events calls) the viewer charts.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../helpers.js';

const db = join(tempDir('hs-cost-'), 'h.db');
const SPOTTER = '8463c716-a2ea-4c14-9efa-87158ebd9f20';
let sessionRows: { key: string; cost_usd: number | null; calls: number }[] = [];

beforeAll(() => {
  expect(runCli(['ingest', join(FIXTURES, 'claude-code'), '--db', db]).status).toBe(0);
  const usage = runCli(['tool', 'usage_report', JSON.stringify({ group_by: 'session', limit: 500, max_bytes: 2_000_000 }), '--db', db]);
  expect(usage.status).toBe(0);
  sessionRows = JSON.parse(usage.stdout).rows;
});

const usdOf = (id: string) => sessionRows.find((r) => r.key === id)!;

describe('cost in show and sessions', () => {
  it('show prints the session cost (sub-agents folded in) and its LLM calls, as the usage report', () => {
    const row = usdOf(SPOTTER);
    const res = runCli(['show', SPOTTER.slice(0, 8), '--db', db]);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^Cost: \\$${row.cost_usd!.toFixed(2).replace('.', '\\.')} for ${row.calls} LLM calls \\(prices as of \\d{4}-\\d\\d-\\d\\d\\)$`, 'm'));
    const json = JSON.parse(runCli(['show', SPOTTER, '--json', '--db', db]).stdout);
    expect(json.diagnostics.cost).toMatchObject({ cost_usd: row.cost_usd, partial: false, unpriced_models: [], calls: row.calls });
  });

  it('the sessions table has a COST column, each top-level session at its usage-report cost', () => {
    const res = runCli(['sessions', '--db', db]);
    expect(res.status).toBe(0);
    const lines = res.stdout.split('\n');
    expect(lines[0]).toMatch(/ TOKENS +COST +FIRST MESSAGE$/);
    for (const r of sessionRows) {
      const line = lines.find((l) => l.startsWith(`${r.key} `))!;
      expect(line, r.key).toContain(` $${r.cost_usd!.toFixed(2)} `);
    }
  });

  it('a call without a cost is null, never $0', () => {
    // The cost mode `display` prices only costs the log recorded: Claude Code records none.
    const res = runCli(['tool', 'analyze_events', JSON.stringify({ session_id: SPOTTER, analysis_type: 'calls', cost_mode: 'display', limit: 2 }), '--db', db]);
    expect(res.status).toBe(0);
    const body = JSON.parse(res.stdout);
    expect(body.calls.map((c: { cost_usd: unknown }) => c.cost_usd)).toEqual([null, null]);
  });

  it('analyze_events calls: one row per LLM call with tokens, cost and latency, summing to the usage analysis', () => {
    const calls = JSON.parse(runCli(['tool', 'analyze_events', JSON.stringify({ session_id: SPOTTER, analysis_type: 'calls', limit: 2000, max_bytes: 5_000_000 }), '--db', db]).stdout);
    const usage = JSON.parse(runCli(['tool', 'analyze_events', JSON.stringify({ session_id: SPOTTER, analysis_type: 'usage' }), '--db', db]).stdout);
    expect(calls.call_count).toBe(usage.llm_requests);
    expect(calls.calls).toHaveLength(calls.call_count);
    const sum = (k: string) => calls.calls.reduce((n: number, c: { tokens: Record<string, number> }) => n + c.tokens[k]!, 0);
    expect(sum('total')).toBe(usage.tokens.total);
    const cost = calls.calls.reduce((n: number, c: { cost_usd: number }) => n + c.cost_usd, 0);
    expect(cost).toBeCloseTo(usage.cost.cost_usd, 4);
    // Claude Code logs no duration: the gap before the response line is measured, and said so.
    expect(calls.calls[0]).toMatchObject({ call_num: 1, model: 'claude-opus-4-6', latency_source: 'between_lines' });
    expect(calls.calls[0].latency_ms).toBeGreaterThan(0);
  });
});
