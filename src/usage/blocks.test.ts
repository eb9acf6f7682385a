import { describe, expect, it } from 'vitest';
import { HindsightError } from '../core/errors.js';
import { buildBlocks, nowProblem, parseNow, type BlockOptions } from './blocks.js';
import type { UsageCall } from './calls.js';

const SONNET = 'claude-sonnet-4-5-20250929';

/** One call: 10,000 input, 2,000 output and 3,000 cache-read tokens unless `extra` says otherwise ($0.0609 on Sonnet 4.5). */
function call(ts: string | null, extra: Partial<UsageCall> = {}): UsageCall {
  const tsMs = ts === null ? null : Date.parse(ts);
  return {
    calls: 1,
    sessionId: 's1',
    rootId: 's1',
    format: 'claude-code',
    project: 'proj-a',
    projectPath: '/home/u/a',
    tsMs,
    lastMs: tsMs,
    long: null,
    model: SONNET,
    tokens: { input: 10_000, output: 2_000, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 3_000 },
    recordedUsd: null,
    ...extra,
  };
}

const at = (iso: string) => Date.parse(iso);
const opts = (o: Partial<BlockOptions> = {}): BlockOptions => ({ now: at('2030-01-01T00:00:00Z'), mode: 'calculate', ...o });
const shape = (calls: UsageCall[], o: Partial<BlockOptions> = {}) =>
  buildBlocks(calls, opts(o)).rows.map((r) => [r.key, r.start, r.end, r.actual_end, r.calls, r.gap, r.active]);

describe('cutting calls into 5-hour blocks (ccusage blocks)', () => {
  it('opens a block at the first call floored to the UTC hour; a call exactly 5 h after the start still belongs to it', () => {
    const calls = [call('2026-03-01T10:20:00Z'), call('2026-03-01T11:50:00Z'), call('2026-03-01T15:00:00.000Z'), call('2026-03-01T15:00:00.001Z')];
    expect(shape(calls)).toEqual([
      ['2026-03-01T10:00:00.000Z', '2026-03-01T10:00:00.000Z', '2026-03-01T15:00:00.000Z', '2026-03-01T15:00:00.000Z', 3, false, false],
      // 1 ms past the window: a new block, but no gap (the previous call was 1 ms before).
      ['2026-03-01T15:00:00.000Z', '2026-03-01T15:00:00.000Z', '2026-03-01T20:00:00.000Z', '2026-03-01T15:00:00.001Z', 1, false, false],
    ]);
  });

  it('a pause of more than 5 h between calls closes the block and leaves a gap row from 5 h after the last call to the next call', () => {
    const calls = [call('2026-03-01T10:20:00Z'), call('2026-03-01T16:20:00.001Z'), call('2026-03-01T21:20:00.001Z')];
    expect(shape(calls)).toEqual([
      ['2026-03-01T10:00:00.000Z', '2026-03-01T10:00:00.000Z', '2026-03-01T15:00:00.000Z', '2026-03-01T10:20:00.000Z', 1, false, false],
      ['gap-2026-03-01T15:20:00.000Z', '2026-03-01T15:20:00.000Z', '2026-03-01T16:20:00.001Z', null, 0, true, false],
      // Exactly 5 h after the previous call: no gap, but past the block's 5 h, so a new block.
      ['2026-03-01T16:00:00.000Z', '2026-03-01T16:00:00.000Z', '2026-03-01T21:00:00.000Z', '2026-03-01T16:20:00.001Z', 1, false, false],
      ['2026-03-01T21:00:00.000Z', '2026-03-01T21:00:00.000Z', '2026-03-02T02:00:00.000Z', '2026-03-01T21:20:00.001Z', 1, false, false],
    ]);
    const gap = buildBlocks(calls, opts()).rows[1]!;
    expect([gap.tokens.total, gap.cost_usd, gap.burn_rate, gap.projection]).toEqual([0, 0, null, null]);
  });

  it('lists rows by start time: a gap that starts after the next block\'s floored start comes after it, as in ccusage', () => {
    // The gap runs 15:15–15:30; the block the 15:30 call opens starts at 15:00.
    const calls = [call('2026-03-01T10:15:00Z'), call('2026-03-01T15:30:00Z')];
    const order = ['2026-03-01T10:00:00.000Z', '2026-03-01T15:00:00.000Z', 'gap-2026-03-01T15:15:00.000Z'];
    expect(shape(calls).map((r) => r[0])).toEqual(order);
    expect(shape(calls, { order: 'desc' }).map((r) => r[0])).toEqual([...order].reverse());
  });

  it('sorts the calls by time first, whatever order they come in', () => {
    const calls = [call('2026-03-01T11:50:00Z'), call('2026-03-01T10:20:00Z')];
    expect(shape(calls).map((r) => [r[0], r[3]])).toEqual([['2026-03-01T10:00:00.000Z', '2026-03-01T11:50:00.000Z']]);
  });

  it('sums tokens, cost and models per block, with a model breakdown on request', () => {
    const calls = [call('2026-03-01T10:00:00Z'), call('2026-03-01T10:30:00Z', { model: 'claude-haiku-4-5-20251001' })];
    const [row] = buildBlocks(calls, opts({ breakdown: true })).rows;
    expect(row!.tokens).toEqual({ input: 20_000, output: 4_000, cache_write: 0, cache_read: 6_000, reasoning: 0, total: 30_000 });
    // Sonnet 4.5: 10k × $3 + 2k × $15 + 3k × $0.30 per million; Haiku 4.5: 10k × $1 + 2k × $5 + 3k × $0.10.
    expect(row!.cost_usd).toBeCloseTo(0.0609 + 0.0203, 9);
    expect(row!.models).toEqual(['claude-haiku-4-5-20251001', SONNET]);
    expect((row!.model_breakdowns as { model: string; calls: number }[]).map((m) => [m.model, m.calls])).toEqual([
      ['claude-haiku-4-5-20251001', 1],
      [SONNET, 1],
    ]);
  });
});

describe('active block, burn rate and projection', () => {
  const two = [call('2026-03-01T10:00:00Z'), call('2026-03-01T10:30:00Z')];

  it('burn rate: tokens per minute (all kinds, and input + output for the indicator) and cost per hour between the first and last call', () => {
    const [row] = buildBlocks(two, opts()).rows;
    // 30,000 tokens (24,000 input + output) over 30 minutes; $0.1218 over half an hour.
    expect(row!.burn_rate!.tokens_per_minute).toBe(1_000);
    expect(row!.burn_rate!.tokens_per_minute_for_indicator).toBe(800);
    expect(row!.burn_rate!.cost_per_hour).toBeCloseTo(0.2436, 9);
    expect(row!.projection).toBeNull(); // the block ended long before now
  });

  it('is active while now is under 5 h after its last call and before its end; the projection carries the burn rate to the end', () => {
    const r = buildBlocks(two, opts({ now: at('2026-03-01T11:00:00Z') }));
    const row = r.rows[0]!;
    expect(row.active).toBe(true);
    expect(r.now).toBe('2026-03-01T11:00:00.000Z');
    // 240 minutes left: 30,000 + 1,000 × 240 tokens; $0.1218 + $0.2436 × 4 h, in whole cents.
    expect(row.projection).toEqual({ total_tokens: 270_000, cost_usd: 1.1, remaining_minutes: 240 });
  });

  it('is not active once now reaches the block end or 5 h after the last call', () => {
    expect(buildBlocks(two, opts({ now: at('2026-03-01T15:00:00Z') })).rows[0]!.active).toBe(false);
    expect(buildBlocks([call('2026-03-01T10:00:00Z')], opts({ now: at('2026-03-01T14:59:59.999Z') })).rows[0]!.active).toBe(true);
    expect(buildBlocks([call('2026-03-01T10:00:00Z')], opts({ now: at('2026-03-01T09:59:00Z') })).rows[0]!.active).toBe(true);
  });

  it('a block with one call (or calls at one instant) has no burn rate, so no projection, even when active', () => {
    const [row] = buildBlocks([call('2026-03-01T10:00:00Z'), call('2026-03-01T10:00:00Z')], opts({ now: at('2026-03-01T11:00:00Z') })).rows;
    expect([row!.active, row!.burn_rate, row!.projection]).toEqual([true, null, null]);
  });

  it('activeOnly keeps the open block alone, and nothing when none is open', () => {
    const calls = [call('2026-03-01T01:00:00Z'), ...two];
    expect(shape(calls, { activeOnly: true, now: at('2026-03-01T11:00:00Z') }).map((r) => r[0])).toEqual(['2026-03-01T10:00:00.000Z']);
    const none = buildBlocks(calls, opts({ activeOnly: true }));
    expect([none.rows.length, none.totals.calls]).toEqual([0, 0]);
  });

  it('an unpriced model leaves the cost null and partial, and so the cost side of burn rate and projection', () => {
    const r = buildBlocks(
      two.map((c) => ({ ...c, model: 'claude-imaginary-9' })),
      opts({ now: at('2026-03-01T11:00:00Z') }),
    );
    const row = r.rows[0]!;
    expect([row.cost_usd, row.partial, row.unpriced_models]).toEqual([null, true, ['claude-imaginary-9']]);
    expect(row.burn_rate!.cost_per_hour).toBeNull();
    expect(row.projection).toEqual({ total_tokens: 270_000, cost_usd: null, remaining_minutes: 240 });
  });
});

describe('filters, order and totals', () => {
  // Two blocks on two UTC days, a gap between them, and one call of another project.
  const calls = [
    call('2026-03-01T22:10:00Z'),
    call('2026-03-02T09:00:00Z'),
    call('2026-03-02T04:00:00Z', { project: 'proj-b', projectPath: '/home/u/b', format: 'amplifier' }),
  ];

  it('project and format narrow the calls before the blocks are cut', () => {
    // All three: 09:00 is exactly 5 h after the 04:00 block's start, so it joins that block.
    expect(shape(calls).map((r) => [r[0], r[4]])).toEqual([
      ['2026-03-01T22:00:00.000Z', 1],
      ['gap-2026-03-02T03:10:00.000Z', 0],
      ['2026-03-02T04:00:00.000Z', 2],
    ]);
    expect(shape(calls, { project: 'proj-a' }).map((r) => r[0])).toEqual(['2026-03-01T22:00:00.000Z', 'gap-2026-03-02T03:10:00.000Z', '2026-03-02T09:00:00.000Z']);
    expect(shape(calls, { format: 'amplifier' }).map((r) => r[0])).toEqual(['2026-03-02T04:00:00.000Z']);
    expect(shape(calls, { project: '/home/u/b' }).map((r) => r[0])).toEqual(['2026-03-02T04:00:00.000Z']);
  });

  it('since and until keep the blocks (and gaps) that start on those days in the time zone', () => {
    const a = { project: 'proj-a' };
    expect(shape(calls, { ...a, since: '2026-03-02' }).map((r) => r[0])).toEqual(['gap-2026-03-02T03:10:00.000Z', '2026-03-02T09:00:00.000Z']);
    expect(shape(calls, { ...a, until: '20260301' }).map((r) => r[0])).toEqual(['2026-03-01T22:00:00.000Z']);
    // In Tokyo (UTC+9) the first block starts on 2026-03-02 07:00.
    expect(shape(calls, { ...a, since: '2026-03-02', timeZone: 'Asia/Tokyo' }).map((r) => r[0])).toEqual([
      '2026-03-01T22:00:00.000Z',
      'gap-2026-03-02T03:10:00.000Z',
      '2026-03-02T09:00:00.000Z',
    ]);
    expect(() => buildBlocks(calls, opts({ since: '2026-03-05', until: '2026-03-01' }))).toThrow(HindsightError);
  });

  it('order desc lists the newest block first', () => {
    expect(shape(calls, { project: 'proj-a', order: 'desc' }).map((r) => r[0])).toEqual(['2026-03-02T09:00:00.000Z', 'gap-2026-03-02T03:10:00.000Z', '2026-03-01T22:00:00.000Z']);
  });

  it('totals cover the blocks listed; a call without a time is in no block and counted apart', () => {
    const all = buildBlocks([...calls, call(null)], opts());
    expect([all.totals.calls, all.totals.undated_calls, all.rows.reduce((n, r) => n + r.calls, 0)]).toEqual([4, 1, 3]);
    const since = buildBlocks([...calls, call(null)], opts({ since: '2026-03-02' }));
    expect([since.totals.calls, since.totals.undated_calls]).toEqual([2, 0]);
  });
});

describe('now', () => {
  it('takes ISO 8601 times with a zone and refuses anything else with the value in the sentence', () => {
    expect(parseNow('2026-02-11T23:30:00Z')).toBe(Date.UTC(2026, 1, 11, 23, 30));
    expect(parseNow('2026-02-12T00:30+01:00')).toBe(Date.UTC(2026, 1, 11, 23, 30));
    expect(nowProblem('2026-02-11T23:30:00.123Z')).toBeNull();
    for (const bad of ['yesterday', '2026-02-11', '2026-02-11T23:30:00', '2026-13-40T99:00:00Z']) {
      expect(nowProblem(bad), bad).toContain(`got "${bad}"`);
      expect(() => parseNow(bad)).toThrow(/now must be an ISO 8601 time/);
    }
  });
});
