import { describe, expect, it } from 'vitest';
import { HindsightError } from '../core/errors.js';
import { buildReport, type ReportOptions } from './aggregate.js';
import type { UsageCall } from './calls.js';

function call(sessionId: string, ts: string | null, model: string | null, input: number, extra: Partial<UsageCall> = {}): UsageCall {
  const tsMs = ts === null ? null : Date.parse(ts);
  return {
    calls: 1,
    sessionId,
    rootId: sessionId.split(':')[0]!,
    format: 'claude-code',
    project: sessionId.startsWith('b') ? 'proj-b' : 'proj-a',
    projectPath: sessionId.startsWith('b') ? '/home/u/b' : '/home/u/a',
    tsMs,
    lastMs: tsMs,
    long: null,
    model,
    tokens: { input, output: 10, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 100 },
    recordedUsd: null,
    ...extra,
  };
}

// 2026-03-01 is a Sunday.
const CALLS: UsageCall[] = [
  call('a1', '2026-02-28T12:00:00Z', 'claude-sonnet-4-5-20250929', 1_000),
  call('a1', '2026-03-01T23:59:59.999Z', 'claude-sonnet-4-5-20250929', 2_000),
  call('a1:agent-x', '2026-03-02T00:00:00Z', 'claude-haiku-4-5-20251001', 3_000),
  call('b1', '2026-03-08T09:00:00Z', 'claude-imaginary-9', 4_000),
  call('b1', '2026-03-08T10:00:00Z', 'claude-sonnet-4-5-20250929', 5_000),
  call('b2', null, 'claude-sonnet-4-5-20250929', 6_000),
];
const opts = (o: Partial<ReportOptions>): ReportOptions => ({ groupBy: 'daily', breakdown: false, mode: 'calculate', startOfWeek: 'sunday', ...o });
const keys = (o: Partial<ReportOptions>) => buildReport(CALLS, opts(o)).rows.map((r) => [r.key, r.tokens.input]);

describe('grouping', () => {
  it('daily: by the UTC day of each call; calls without a time are counted apart', () => {
    const r = buildReport(CALLS, opts({}));
    expect(r.rows.map((x) => [x.key, x.tokens.input])).toEqual([
      ['2026-02-28', 1000],
      ['2026-03-01', 2000],
      ['2026-03-02', 3000],
      ['2026-03-08', 9000],
    ]);
    expect(r.totals.undated_calls).toBe(1);
    expect(r.totals.tokens.input).toBe(21_000); // totals keep every call, dated or not
    expect(r.rows[0]!.tokens).toEqual({ input: 1000, output: 10, cache_write: 0, cache_read: 100, reasoning: 0, total: 1110 });
  });

  it('keeps reasoning tokens apart from output, in the total, priced as output, per model too', () => {
    const gemini = (ts: string, output: number, reasoning: number) =>
      call('g1', ts, 'gemini-2.5-pro', 60, { format: 'gemini', tokens: { input: 60, output, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 40, reasoning } });
    const r = buildReport([gemini('2026-03-01T10:00:00Z', 10, 7), gemini('2026-03-01T11:00:00Z', 5, 0), CALLS[0]!], opts({ groupBy: 'session', breakdown: true }));
    const row = r.rows.find((x) => x.key === 'g1')!;
    expect(row.tokens).toEqual({ input: 120, output: 15, cache_write: 0, cache_read: 80, reasoning: 7, total: 222 });
    // Gemini 2.5 Pro: 120×1.25 + (15 + 7)×10 + 80×0.125 = 380 µ$
    expect(row.cost_usd).toBeCloseTo(0.00038, 12);
    expect((row.model_breakdowns as { tokens: { reasoning: number } }[])[0]!.tokens.reasoning).toBe(7);
    expect(r.totals.tokens.reasoning).toBe(7);
    expect(r.rows.find((x) => x.key === 'a1')!.tokens.reasoning).toBe(0);
  });

  it('monthly and weekly (weeks start on Sunday by default, Monday on request)', () => {
    expect(keys({ groupBy: 'monthly' })).toEqual([
      ['2026-02', 1000],
      ['2026-03', 14000],
    ]);
    expect(keys({ groupBy: 'weekly' })).toEqual([
      ['2026-02-22', 1000],
      ['2026-03-01', 5000],
      ['2026-03-08', 9000],
    ]);
    expect(keys({ groupBy: 'weekly', startOfWeek: 'monday' })).toEqual([
      ['2026-02-23', 3000],
      ['2026-03-02', 12000],
    ]);
  });

  it('session: sub-agents are folded into their parent and listed under subagents', () => {
    const r = buildReport(CALLS, opts({ groupBy: 'session' }));
    expect(r.rows.map((x) => [x.key, x.tokens.input, x.calls])).toEqual([
      ['b1', 9000, 2],
      ['a1', 6000, 3],
      ['b2', 6000, 1], // no time: last
    ]);
    const a1 = r.rows.find((x) => x.key === 'a1')!;
    expect(a1.models).toEqual(['claude-haiku-4-5-20251001', 'claude-sonnet-4-5-20250929']);
    expect(a1.first_activity).toBe('2026-02-28T12:00:00.000Z');
    expect(a1.last_activity).toBe('2026-03-02T00:00:00.000Z');
    expect(a1.subagents).toEqual([expect.objectContaining({ session_id: 'a1:agent-x', calls: 1, tokens: expect.objectContaining({ input: 3000 }) })]);
  });

  it('project: by the top-level session\'s project, filterable by name or path', () => {
    expect(buildReport(CALLS, opts({ groupBy: 'project' })).rows.map((x) => [x.key, x.tokens.input, x.sessions, x.project_path])).toEqual([
      ['proj-a', 6000, 1, '/home/u/a'],
      ['proj-b', 15000, 2, '/home/u/b'],
    ]);
    expect(keys({ groupBy: 'project', project: '/home/u/b' })).toEqual([['proj-b', 15000]]);
    expect(keys({ groupBy: 'project', project: 'proj-a' })).toEqual([['proj-a', 6000]]);
  });

  it('since/until are inclusive UTC days and apply to every grouping', () => {
    expect(keys({ since: '2026-03-01', until: '2026-03-02' })).toEqual([
      ['2026-03-01', 2000],
      ['2026-03-02', 3000],
    ]);
    expect(keys({ since: '20260302' })).toEqual([
      ['2026-03-02', 3000],
      ['2026-03-08', 9000],
    ]);
    // A call without a time cannot be placed in a range: b2 drops out.
    expect(keys({ groupBy: 'session', until: '2026-12-31' }).map((x) => x[0])).toEqual(['b1', 'a1']);
    expect(buildReport(CALLS, opts({ since: '2027-01-01' })).rows).toEqual([]);
  });

  it.each([
    [{ since: '2026-13-01' }, /since must be a calendar date YYYY-MM-DD/],
    [{ since: '2026-02-30' }, /since must be a calendar date/],
    [{ until: 'yesterday' }, /until must be a calendar date/],
    [{ until: '2026-3-1' }, /until must be a calendar date/],
    [{ since: '2026-03-08', until: '2026-03-01' }, /since \(2026-03-08\) is after until \(2026-03-01\)/],
  ])('rejects a bad range %j with a clear error', (range, message) => {
    let err: unknown;
    try {
      buildReport(CALLS, opts(range));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HindsightError);
    expect((err as HindsightError).code).toBe('INVALID_ARGUMENTS');
    expect((err as Error).message).toMatch(message);
  });
});

describe('cost in rows', () => {
  it('sums priced calls, lists unpriced models and marks the row partial (never $0)', () => {
    const day = buildReport(CALLS, opts({ since: '2026-03-08', until: '2026-03-08', breakdown: true })).rows[0]!;
    // Only the Sonnet call is priced: 5000×3 + 10×15 + 100×0.30 = 15180 µ$
    expect(day.cost_usd).toBe(0.01518);
    expect(day.partial).toBe(true);
    expect(day.unpriced_models).toEqual(['claude-imaginary-9']);
    expect(day.uncosted_calls).toBe(1);
    expect(day.model_breakdowns).toEqual([
      expect.objectContaining({ model: 'claude-imaginary-9', cost_usd: null, partial: true, unpriced_models: ['claude-imaginary-9'] }),
      expect.objectContaining({ model: 'claude-sonnet-4-5-20250929', cost_usd: 0.01518, partial: false }),
    ]);
    const onlyUnpriced = buildReport([CALLS[3]!], opts({})).rows[0]!;
    expect(onlyUnpriced.cost_usd).toBeNull();
    expect(onlyUnpriced.tokens.input).toBe(4000);
  });

  it('display mode uses recorded costs only; auto falls back to the table', () => {
    const calls = [call('a1', '2026-03-01T10:00:00Z', 'claude-sonnet-4-5', 1000, { recordedUsd: 0.25 }), call('a1', '2026-03-01T11:00:00Z', 'claude-sonnet-4-5', 1000)];
    const display = buildReport(calls, opts({ mode: 'display' })).totals;
    expect(display).toMatchObject({ cost_usd: 0.25, partial: true, uncosted_calls: 1, unpriced_models: [] });
    // 0.25 + (1000×3 + 10×15 + 100×0.30 = 3180 µ$)
    expect(buildReport(calls, opts({ mode: 'auto' })).totals).toMatchObject({ cost_usd: 0.25318, partial: false });
  });

  it('is deterministic: the same calls in any order give identical JSON', () => {
    for (const groupBy of ['daily', 'weekly', 'monthly', 'session', 'project'] as const) {
      const a = JSON.stringify(buildReport(CALLS, opts({ groupBy, breakdown: true })));
      const b = JSON.stringify(buildReport([...CALLS].reverse(), opts({ groupBy, breakdown: true })));
      expect(b).toBe(a);
    }
  });
});

describe('time zone and order (ccusage --timezone, --order)', () => {
  it('cuts days, weeks, months and the since/until range in the given zone', () => {
    // 2026-03-01T23:59:59.999Z is already Monday 2026-03-02 in Berlin (UTC+1).
    expect(keys({ timeZone: 'Europe/Berlin' })).toEqual([
      ['2026-02-28', 1000],
      ['2026-03-02', 5000],
      ['2026-03-08', 9000],
    ]);
    // In Los Angeles (UTC-8) the 00:00Z call of 03-02 is still 03-01.
    expect(keys({ timeZone: 'America/Los_Angeles' })).toEqual([
      ['2026-02-28', 1000],
      ['2026-03-01', 5000],
      ['2026-03-08', 9000],
    ]);
    // Weeks from Monday: the Sunday 03-01 23:59Z call is Monday 03-02 in Berlin, so it moves to the next week.
    expect(keys({ groupBy: 'weekly', startOfWeek: 'monday' })).toEqual([
      ['2026-02-23', 3000],
      ['2026-03-02', 12000],
    ]);
    expect(keys({ groupBy: 'weekly', startOfWeek: 'monday', timeZone: 'Europe/Berlin' })).toEqual([
      ['2026-02-23', 1000],
      ['2026-03-02', 14000],
    ]);
    expect(keys({ groupBy: 'monthly', timeZone: 'Pacific/Kiritimati' })).toEqual([
      ['2026-03', 15000], // UTC+14: the 02-28 12:00Z call is 03-01 there
    ]);
    expect(keys({ since: '2026-03-02', until: '2026-03-02', timeZone: 'Europe/Berlin' })).toEqual([['2026-03-02', 5000]]);
    expect(keys({ timeZone: 'UTC' })).toEqual(keys({}));
  });

  it('refuses an unknown zone, naming it', () => {
    expect(() => buildReport(CALLS, opts({ timeZone: 'Mars/Olympus' }))).toThrow(/unknown time zone "Mars\/Olympus"/);
    expect(() => buildReport(CALLS, opts({ timeZone: 'Mars/Olympus' }))).toThrow(HindsightError);
  });

  it('order desc reverses the periods; order asc puts sessions oldest first', () => {
    for (const groupBy of ['daily', 'weekly', 'monthly', 'project'] as const) {
      expect(keys({ groupBy, order: 'desc' })).toEqual(keys({ groupBy }).reverse());
      expect(keys({ groupBy, order: 'asc' })).toEqual(keys({ groupBy }));
    }
    expect(keys({ groupBy: 'session' }).map(([k]) => k)).toEqual(['b1', 'a1', 'b2']);
    expect(keys({ groupBy: 'session', order: 'asc' }).map(([k]) => k)).toEqual(['b2', 'a1', 'b1']);
  });
});
