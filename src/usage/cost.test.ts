import { describe, expect, it } from 'vitest';
import { callCost, priceCall, type CallTokens } from './cost.js';
import { findPrice, LONG_CONTEXT_THRESHOLD, PRICE_TABLE, type ModelPrice } from './pricing.js';

const tokens = (t: Partial<CallTokens>): CallTokens => ({ input: 0, output: 0, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 0, ...t });

describe('cost of one call', () => {
  it('prices a known model exactly (hand-computed, each token kind at its own rate)', () => {
    // Sonnet 4.5: input 3, output 15, 5m write 3.75, 1h write 6, read 0.30 $/MTok.
    // 1000×3 + 500×15 + 1600×3.75 + 400×6 + 10000×0.30 = 3000 + 7500 + 6000 + 2400 + 3000 = 21900 µ$
    const t = tokens({ input: 1000, output: 500, cacheWrite: 2000, cacheWrite1h: 400, cacheRead: 10_000 });
    expect(callCost('claude-sonnet-4-5-20250929', t, null, 'calculate')).toEqual({ usd: expect.closeTo(0.0219, 12), source: 'calculated' });
    // Haiku 4.5: 1, 5, 1.25, 2, 0.10 → 1000 + 2500 + 2000 + 800 + 1000 = 7300 µ$
    expect(callCost('claude-haiku-4-5-20251001', t, null, 'calculate').usd).toBeCloseTo(0.0073, 12);
    // Opus 4.1 at the old $15/$75: 15000 + 37500 + 30000 + 12000 + 15000 = 109500 µ$
    expect(callCost('claude-opus-4-1-20250805', t, null, 'calculate').usd).toBeCloseTo(0.1095, 12);
  });

  it('bills the whole call at the long-context rates when its prompt exceeds 200k tokens', () => {
    const sonnet = findPrice('claude-sonnet-4-5')!;
    // Prompt exactly 200,000 → standard: 140000×3 + 60000×0.30 + 1000×15 = 453000 µ$
    expect(priceCall(tokens({ input: 140_000, cacheRead: 60_000, output: 1000 }), sonnet)).toBeCloseTo(0.453, 12);
    // Prompt 210,000 → every token at 6 / 0.60 / 22.50: 900000 + 36000 + 22500 = 958500 µ$
    expect(priceCall(tokens({ input: 150_000, cacheRead: 60_000, output: 1000 }), sonnet)).toBeCloseTo(0.9585, 12);
    // Cache writes count toward the prompt: 100k input + 101k 5m writes → 600000 + 757500 = 1357500 µ$
    expect(priceCall(tokens({ input: 100_000, cacheWrite: 101_000 }), sonnet)).toBeCloseTo(1.3575, 12);
    // Opus 4.6 above 200k: 10 input / 37.50 output
    expect(priceCall(tokens({ input: 250_000, output: 2000 }), findPrice('claude-opus-4-6')!)).toBeCloseTo(2.575, 12);
    // A model without a long-context tier keeps its rate: Haiku 4.5 at 250k input = 0.25
    expect(priceCall(tokens({ input: 250_000 }), findPrice('claude-haiku-4-5')!)).toBeCloseTo(0.25, 12);
  });

  it('bills reasoning tokens (outside output) at the output rate, long-context rate included, and never counts them into the prompt', () => {
    const pro = findPrice('gemini-2.5-pro')!;
    // Gemini 2.5 Pro: input 1.25, output 10, cached 0.125 $/MTok. 60×1.25 + (10 + 7)×10 + 40×0.125 = 250 µ$ (ccusage 20.0.24 prints 0.00025).
    expect(priceCall(tokens({ input: 60, output: 10, cacheRead: 40, reasoning: 7 }), pro)).toBeCloseTo(0.00025, 12);
    // Reasoning moved out of output costs the same: the two kinds share one rate.
    expect(priceCall(tokens({ input: 60, output: 3, cacheRead: 40, reasoning: 14 }), pro)).toBeCloseTo(priceCall(tokens({ input: 60, output: 17, cacheRead: 40 }), pro), 15);
    // Above 200k prompt tokens every token, reasoning too, at 2.5 / 15 / 0.25: 250000×2.5 + (1000 + 4000)×15 = 700000 µ$
    expect(priceCall(tokens({ input: 250_000, output: 1000, reasoning: 4000 }), pro)).toBeCloseTo(0.7, 12);
    // Reasoning is output: 199,000 input and 5,000 reasoning stay below the threshold (199000×1.25 + 5000×10 = 298750 µ$).
    expect(priceCall(tokens({ input: 199_000, reasoning: 5000 }), pro)).toBeCloseTo(0.29875, 12);
  });

  it('fills missing cache prices by the rule: write = 1.25 × input, read = 0.1 × input (1h write = 2 × input)', () => {
    const bare: ModelPrice = { model: 'test-model', provider: 'anthropic', input: 2, output: 8 };
    // 1000×2.5 (5m write) + 1000×0.2 (read) = 2700 µ$
    expect(priceCall(tokens({ cacheWrite: 1000, cacheRead: 1000 }), bare)).toBeCloseTo(0.0027, 12);
    // 1h writes at 2 × input = 4 $/MTok: 500×2.5 + 500×4 = 3250 µ$
    expect(priceCall(tokens({ cacheWrite: 1000, cacheWrite1h: 500 }), bare)).toBeCloseTo(0.00325, 12);
  });

  it('reports an unpriced model as null, never $0', () => {
    expect(callCost('claude-imaginary-9', tokens({ input: 1000 }), null, 'calculate')).toEqual({ usd: null, source: 'unpriced' });
    expect(callCost(null, tokens({ input: 1000 }), null, 'calculate')).toEqual({ usd: null, source: 'unpriced' });
  });

  it('uses a recorded cost in display and auto modes, never in calculate', () => {
    const t = tokens({ input: 100_000 }); // 0.30 at Sonnet 4.5's $3/MTok
    expect(callCost('claude-sonnet-4-5', t, 0.5, 'calculate')).toEqual({ usd: 0.3, source: 'calculated' });
    expect(callCost('claude-sonnet-4-5', t, 0.5, 'display')).toEqual({ usd: 0.5, source: 'recorded' });
    expect(callCost('claude-sonnet-4-5', t, null, 'display')).toEqual({ usd: null, source: 'not_recorded' });
    expect(callCost('claude-sonnet-4-5', t, 0.5, 'auto')).toEqual({ usd: 0.5, source: 'recorded' });
    expect(callCost('claude-sonnet-4-5', t, null, 'auto')).toEqual({ usd: 0.3, source: 'calculated' });
    expect(callCost('claude-imaginary-9', t, null, 'auto')).toEqual({ usd: null, source: 'unpriced' });
  });
});

describe('long-context threshold', () => {
  it('every long-context price starts at LONG_CONTEXT_THRESHOLD (the SQLite usage read groups calls by it)', () => {
    const long = PRICE_TABLE.filter((p) => p.longContext);
    expect(long.length).toBeGreaterThan(2);
    for (const p of long) expect(p.longContext!.threshold, p.model).toBe(LONG_CONTEXT_THRESHOLD);
  });

  it('a group of calls priced with its long flag costs the sum of its calls', () => {
    const price = PRICE_TABLE.find((p) => p.longContext)!;
    const big = { input: 150_000, output: 2_000, cacheWrite: 30_000, cacheWrite1h: 0, cacheRead: 40_000 };
    const sum = { input: 300_000, output: 4_000, cacheWrite: 60_000, cacheWrite1h: 0, cacheRead: 80_000 };
    expect(priceCall(sum, price, true)).toBeCloseTo(2 * priceCall(big, price), 9);
    const small = { input: 1_000, output: 100, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 1_000 };
    const many = { input: 300_000, output: 30_000, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 300_000 };
    expect(priceCall(many, price, false)).toBeCloseTo(300 * priceCall(small, price), 9);
  });
});
