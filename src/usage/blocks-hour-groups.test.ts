// Blocks cut from calls summed per session and UTC hour (what Store.usageCallHours hands over) equal
// blocks cut call by call: the same windows, gaps, times, tokens, calls, models, burn rates and
// projections, on random call sets crowded around hour marks, 5-hour edges and shared instants,
// under every option. Costs are priced per group there (prices are linear within one), so they are
// compared to the last float bits the per-call sums can differ by; the 300 MB corpus and the fixtures'
// reports are byte-identical (docs/benchmarks.md, src/store/conformance/usage-call-rows.test.ts).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LONG_CONTEXT_THRESHOLD } from './pricing.js';
import { buildBlocks, type BlockOptions, type BlocksReport } from './blocks.js';
import type { UsageCall } from './calls.js';

const HOUR = 3_600_000;
const BASE = Date.parse('2026-03-01T00:00:00Z');
const MODELS = ['claude-sonnet-4-5', 'claude-opus-4-6', 'claude-haiku-4-5-20251001', 'no-such-model', null];

/**
 * The calls summed as the store's usage_call_hours sums them (core/usage-calls.ts): per session,
 * floored UTC hour, whether at the hour's first millisecond, model, long-context side and
 * recorded-cost presence; calls without a time in one group per session and the rest of the key.
 * A reference written apart from the SQL, in the order the store's reader sorts groups.
 */
function hourGroups(calls: readonly UsageCall[]): UsageCall[] {
  const groups = new Map<string, UsageCall>();
  for (const c of calls) {
    const t = c.tokens;
    const hour = c.tsMs === null ? null : Math.floor(c.tsMs / HOUR);
    const onHour = c.tsMs === null ? null : c.tsMs % HOUR === 0;
    const long = t.input + t.cacheWrite + t.cacheRead > LONG_CONTEXT_THRESHOLD;
    const key = JSON.stringify([c.sessionId, hour, onHour, c.model, long, c.recordedUsd !== null]);
    const g = groups.get(key);
    if (!g) {
      groups.set(key, { ...c, long, tokens: { ...t, reasoning: t.reasoning ?? 0 } });
      continue;
    }
    g.calls += c.calls;
    if (c.tsMs !== null) {
      g.tsMs = Math.min(g.tsMs!, c.tsMs);
      g.lastMs = Math.max(g.lastMs!, c.tsMs);
    }
    g.tokens.input += t.input;
    g.tokens.output += t.output;
    g.tokens.cacheWrite += t.cacheWrite;
    g.tokens.cacheWrite1h += t.cacheWrite1h;
    g.tokens.cacheRead += t.cacheRead;
    g.tokens.reasoning = (g.tokens.reasoning ?? 0) + (t.reasoning ?? 0);
    if (c.recordedUsd !== null) g.recordedUsd = g.recordedUsd! + c.recordedUsd;
  }
  const cmp = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);
  return [...groups.values()].sort(
    (a, b) =>
      cmp(a.sessionId, b.sessionId) ||
      (a.tsMs ?? -Infinity) - (b.tsMs ?? -Infinity) ||
      cmp(a.model, b.model) ||
      Number(a.long) - Number(b.long) ||
      Number(a.recordedUsd !== null) - Number(b.recordedUsd !== null),
  );
}

/** A time crowded around what the cut turns on: hour marks (exactly, 1 ms either side) and shared instants. */
const time = fc.oneof(
  fc.record({ hour: fc.integer({ min: -3, max: 16 }), offset: fc.constantFrom(0, 1, HOUR - 1, 30 * 60_000) }).map(({ hour, offset }) => BASE + hour * HOUR + offset),
  fc.integer({ min: -3 * HOUR, max: 40 * HOUR }).map((ms) => BASE + ms),
);

const call = fc
  .record({
    // Mostly one session and model, so an hour's group often holds several calls.
    session: fc.oneof({ arbitrary: fc.constant('s1'), weight: 4 }, { arbitrary: fc.constantFrom('s2', 's3:agent', 'z'), weight: 1 }),
    tsMs: fc.option(time, { freq: 12 }),
    model: fc.oneof({ arbitrary: fc.constant('claude-sonnet-4-5'), weight: 4 }, { arbitrary: fc.constantFrom(...MODELS), weight: 1 }),
    input: fc.integer({ min: 0, max: 100_000 }),
    output: fc.integer({ min: 0, max: 20_000 }),
    cacheWrite: fc.integer({ min: 0, max: 40_000 }),
    cacheRead: fc.integer({ min: 0, max: 80_000 }),
    reasoning: fc.integer({ min: 0, max: 3_000 }),
    // Dyadic amounts: recorded costs add up exactly in any order.
    recordedUsd: fc.oneof({ arbitrary: fc.constant(null), weight: 4 }, { arbitrary: fc.integer({ min: 0, max: 4096 }).map((n) => n / 1024), weight: 1 }),
  })
  .map(({ session, tsMs, model, input, output, cacheWrite, cacheRead, reasoning, recordedUsd }): UsageCall => {
    const root = session.split(':')[0]!;
    return {
      calls: 1,
      sessionId: session,
      rootId: root,
      format: root === 'z' ? 'codex' : 'claude-code',
      project: root === 's2' ? 'proj-b' : 'proj-a',
      projectPath: root === 's2' ? '/home/u/b' : '/home/u/a',
      tsMs,
      lastMs: tsMs,
      long: null,
      model,
      tokens: { input, output, cacheWrite, cacheWrite1h: Math.floor(cacheWrite / 3), cacheRead, reasoning },
      recordedUsd,
    };
  });

const day = (offsetDays: number) => new Date(BASE + offsetDays * 86_400_000).toISOString().slice(0, 10);

const options = fc.record(
  {
    now: fc.oneof(time, fc.constant(BASE + 1000 * HOUR)),
    mode: fc.constantFrom('calculate' as const, 'display' as const, 'auto' as const),
    breakdown: fc.boolean(),
    order: fc.constantFrom('asc' as const, 'desc' as const),
    activeOnly: fc.boolean(),
    timeZone: fc.constantFrom('UTC', 'Europe/Paris', 'Asia/Kolkata'),
    since: fc.integer({ min: -1, max: 1 }).map(day),
    until: fc.integer({ min: 1, max: 3 }).map(day),
    project: fc.constantFrom('proj-a', '/home/u/b'),
    format: fc.constantFrom('claude-code', 'codex'),
  },
  { requiredKeys: ['now', 'mode'] },
);

const COST_KEYS = new Set(['cost_usd', 'cost_per_hour']);

/** `actual` equals `expected`, costs to within the float bits summing per group instead of per call can move. */
function expectSameReport(actual: unknown, expected: unknown, path = 'report'): void {
  if (typeof expected === 'number' && typeof actual === 'number' && COST_KEYS.has(path.split('.').pop()!)) {
    // Rounded to 1e-9 (cent for a projection): the per-call and per-group sums round alike unless they straddle a step.
    expect(Math.abs(actual - expected), path).toBeLessThanOrEqual(path.includes('projection') ? 0.01 : 1e-9 + Math.abs(expected) * 1e-12);
    return;
  }
  if (typeof expected !== 'object' || expected === null || typeof actual !== 'object' || actual === null) {
    expect(actual, path).toEqual(expected);
    return;
  }
  expect(Object.keys(actual), path).toEqual(Object.keys(expected));
  for (const key of Object.keys(expected)) expectSameReport((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], `${path}.${key}`);
}

describe('blocks from hour groups', () => {
  it('equal blocks cut call by call, on random calls under every option', () => {
    fc.assert(
      fc.property(fc.array(call, { maxLength: 150 }), options, (calls, o) => {
        const perCall: BlocksReport = buildBlocks(calls, o as BlockOptions);
        const grouped = hourGroups(calls);
        const perGroup = buildBlocks(grouped, o as BlockOptions);
        expectSameReport(perGroup, perCall);
      }),
      { numRuns: 400 },
    );
  });

  it('take a call at a window’s 5-hour mark, and end a window at its latest call when a group starting earlier ends later', () => {
    const one = (iso: string, sessionId: string): UsageCall => ({
      calls: 1, sessionId, rootId: sessionId, format: 'claude-code', project: 'proj-a', projectPath: '/home/u/a',
      tsMs: Date.parse(iso), lastMs: Date.parse(iso), long: null, model: 'claude-sonnet-4-5',
      tokens: { input: 1_000, output: 100, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 0, reasoning: 0 }, recordedUsd: null,
    });
    const calls = [
      one('2026-03-01T10:20:00Z', 's1'),
      // s1's 14:00 group runs 14:05–14:55; s2's starts later (14:10) and ends earlier (14:15).
      one('2026-03-01T14:05:00Z', 's1'),
      one('2026-03-01T14:55:00Z', 's1'),
      one('2026-03-01T14:10:00Z', 's2'),
      one('2026-03-01T14:15:00Z', 's2'),
      one('2026-03-02T01:20:00Z', 's1'),
      // Exactly 5 h after the window's start: still in it; 1 ms later, in the same hour: the next window.
      one('2026-03-02T06:00:00.000Z', 's2'),
      one('2026-03-02T06:00:00.001Z', 's2'),
    ];
    const o = { now: Date.parse('2026-03-03T00:00:00Z'), mode: 'calculate' as const };
    const grouped = hourGroups(calls);
    expect(grouped.length).toBe(6);
    const shape = (r: BlocksReport) => r.rows.map((w) => [w.start, w.actual_end, w.calls]);
    expect(shape(buildBlocks(grouped, o))).toEqual([
      ['2026-03-01T10:00:00.000Z', '2026-03-01T14:55:00.000Z', 5],
      ['2026-03-01T19:55:00.000Z', null, 0],
      ['2026-03-02T01:00:00.000Z', '2026-03-02T06:00:00.000Z', 2],
      ['2026-03-02T06:00:00.000Z', '2026-03-02T06:00:00.001Z', 1],
    ]);
    expectSameReport(buildBlocks(grouped, o), buildBlocks(calls, o));
  });
});
