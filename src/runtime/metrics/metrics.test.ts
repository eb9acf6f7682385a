import { describe, expect, it } from 'vitest';
import { callCost } from '../../usage/cost.js';
import { findPrice } from '../../usage/pricing.js';
import type { ChatResponse, ProviderUsage } from '../model/chat.js';
import { CostTracker, type CallPricer } from './cost-tracker.js';
import { StepMetrics } from './step-metrics.js';
import { TokenCounter, ZERO_USAGE } from './token-counter.js';

/** The shipped price table, wired the way the session wiring does it. */
const shippedPrices: CallPricer = (model, tokens) => callCost(model, tokens, null, 'calculate').usd;

const usage = (over: Partial<ProviderUsage>): ProviderUsage => ({ ...ZERO_USAGE, ...over });

const response = (over: Partial<ChatResponse>): ChatResponse => ({
  content: null,
  reasoning: null,
  toolCalls: [],
  usage: null,
  finishReason: 'stop',
  responseId: null,
  model: 'claude-sonnet-4-5',
  ...over,
});

describe('TokenCounter', () => {
  it('estimates input and output', () => {
    const counter = new TokenCounter();
    expect(counter.countInput([{ role: 'user', content: 'abcd' }])).toBe(5);
    expect(counter.countOutput({ content: 'abcdefgh', reasoning: 'abcd', toolCalls: [{ id: 'x', name: 'bash', arguments: { command: 'ls' } }] })).toBe(2 + 1 + 5);
  });

  it('takes the provider\'s usage when present, else estimates; sums both', () => {
    const counter = new TokenCounter();
    const request = [{ role: 'user' as const, content: 'abc '.repeat(10) }];
    const reported = counter.usageFor(request, response({ content: 'hi', usage: usage({ inputTokens: 100, outputTokens: 20, cacheReadTokens: 50 }) }));
    expect(reported).toEqual({ source: 'provider', usage: usage({ inputTokens: 100, outputTokens: 20, cacheReadTokens: 50 }) });
    const estimated = counter.usageFor(request, response({ content: 'a'.repeat(8) }));
    expect(estimated).toEqual({ source: 'estimate', usage: usage({ inputTokens: 14, outputTokens: 2 }) });
    // All zeros for a response that said something: the server did not count.
    expect(counter.usageFor(request, response({ content: 'hello', usage: usage({}) })).source).toBe('estimate');
    // All zeros for an empty response is a true zero.
    expect(counter.usageFor(request, response({ content: '', usage: usage({}) })).source).toBe('provider');
    counter.recordTurn(reported);
    counter.recordTurn(estimated);
    expect(counter.getCumulative()).toEqual({
      inputTokens: 114,
      outputTokens: 22,
      cacheReadTokens: 50,
      cacheCreationTokens: 0,
      reasoningTokens: 0,
      totalTokens: 186,
      steps: 2,
      estimatedSteps: 1,
    });
  });
});

describe('CostTracker on the shipped price table', () => {
  it('prices a hosted model with the table\'s own rates', () => {
    const tracker = new CostTracker({ priceCall: shippedPrices });
    const u = usage({ inputTokens: 100_000, outputTokens: 20_000, cacheReadTokens: 50_000, cacheCreationTokens: 10_000 });
    const price = findPrice('claude-sonnet-4-5')!;
    // Under the long-context threshold: the base rates.
    const expected = (100_000 * price.input + 20_000 * price.output + 50_000 * price.cacheRead! + 10_000 * price.cacheWrite5m!) / 1e6;
    const cost = tracker.estimateTurnCost({ model: 'claude-sonnet-4-5-20250929', usage: u });
    expect(cost.source).toBe('calculated');
    expect(cost.usd).toBeCloseTo(expected, 9);
    expect(cost.warning).toBeNull();
  });

  it('costs a local model $0, and an unknown hosted model null with a warning', () => {
    const tracker = new CostTracker({ priceCall: shippedPrices });
    const u = usage({ inputTokens: 5000, outputTokens: 500 });
    expect(tracker.estimateTurnCost({ model: 'qwen3-coder-30b', usage: u, local: true })).toEqual({ usd: 0, source: 'local', warning: null });
    const unknown = tracker.estimateTurnCost({ model: 'qwen3-coder-30b', usage: u });
    expect(unknown.usd).toBeNull();
    expect(unknown.source).toBe('unpriced');
    expect(unknown.warning).toContain('"qwen3-coder-30b"');
    // A known model marked local (served by this machine) is still $0.
    expect(tracker.estimateTurnCost({ model: 'claude-sonnet-4-5', usage: u, local: true }).usd).toBe(0);
  });

  it('accumulates priced turns, counts unpriced ones, and checks the budget', () => {
    const tracker = new CostTracker({ priceCall: shippedPrices });
    expect(tracker.isOverBudget(0)).toBe(false);
    const u = usage({ inputTokens: 100_000, outputTokens: 10_000 });
    const one = tracker.recordTurn({ model: 'claude-sonnet-4-5', usage: u }).usd!;
    tracker.recordTurn({ model: 'no-such-model', usage: u });
    tracker.recordTurn({ model: 'claude-sonnet-4-5', usage: u });
    expect(tracker.cumulativeCost).toBeCloseTo(2 * one, 12);
    expect(tracker.pricedTurns).toBe(2);
    expect(tracker.unpricedTurns).toBe(1);
    expect(tracker.isOverBudget(2 * one + 0.01)).toBe(false);
    expect(tracker.isOverBudget(2 * one)).toBe(true);
    expect(tracker.isOverBudget(0)).toBe(true);
    expect(() => tracker.isOverBudget(-1)).toThrow('the budget must be a number of USD ≥ 0, got -1');
  });

  it('never exhausts a budget with local models alone', () => {
    const tracker = new CostTracker({ priceCall: shippedPrices });
    tracker.recordTurn({ model: 'llama', usage: usage({ inputTokens: 1e6 }), local: true });
    expect(tracker.isOverBudget(0)).toBe(false);
  });
});

describe('StepMetrics', () => {
  it('records usage and cost per step, with totals', () => {
    const metrics = new StepMetrics(new TokenCounter(), new CostTracker({ priceCall: shippedPrices }), { model: 'claude-haiku-4-5', local: false });
    const request = [{ role: 'user' as const, content: 'hello' }];
    const first = metrics.recordStep({ request, response: response({ content: 'hi', model: 'claude-haiku-4-5', usage: usage({ inputTokens: 1_000_000 }) }) });
    expect(first).toEqual({ usage: usage({ inputTokens: 1_000_000 }), source: 'provider', costUsd: findPrice('claude-haiku-4-5')!.input, costWarning: null });
    const second = metrics.recordStep({ request, response: response({ content: 'abcd', model: '' }) });
    expect(second.source).toBe('estimate');
    expect(second.costUsd).toBeGreaterThan(0);
    expect(metrics.totals().usage.inputTokens).toBe(1_000_000 + 6);
    expect(metrics.totals().costUsd).toBeCloseTo(first.costUsd! + second.costUsd!, 12);
    expect(metrics.isOverBudget(0.5)).toBe(true);
  });

  it('reports an unknown total once a step could not be priced', () => {
    const metrics = new StepMetrics(new TokenCounter(), new CostTracker({ priceCall: shippedPrices }), { model: 'mystery', local: false });
    const step = metrics.recordStep({ request: [], response: response({ content: 'x', model: 'mystery-1' }) });
    expect(step.costUsd).toBeNull();
    expect(step.costWarning).toContain('mystery-1');
    expect(metrics.totals().costUsd).toBeNull();
  });
});
