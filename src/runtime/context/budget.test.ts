import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_BUDGET, effectiveInputLimit, resolveContextBudget, TokenLedger } from './budget.js';
import { user } from './test-conversations.js';

describe('context budget settings', () => {
  it('has the seed defaults', () => {
    expect(DEFAULT_CONTEXT_BUDGET).toEqual({
      contextWindowTokens: 131_072,
      reservedOutputTokens: 8_192,
      keepRecentTokens: 20_000,
      maxSingleReadResultTokens: 12_000,
      maxTotalReadResultTokensPerTurn: 96_000,
      keepRecentToolTurns: 3,
      assemblyCompactionThreshold: 0.8,
    });
    expect(effectiveInputLimit(DEFAULT_CONTEXT_BUDGET)).toBe(122_880);
  });

  it('fills in defaults and refuses values that cannot be a budget, naming the field', () => {
    expect(resolveContextBudget({ contextWindowTokens: 32_768, keepRecentToolTurns: undefined })).toEqual({ ...DEFAULT_CONTEXT_BUDGET, contextWindowTokens: 32_768 });
    expect(() => resolveContextBudget({ keepRecentTokens: -1 })).toThrow('keepRecentTokens must be a finite number ≥ 0, got -1');
    expect(() => resolveContextBudget({ assemblyCompactionThreshold: 80 })).toThrow('assemblyCompactionThreshold is a fraction');
    expect(() => resolveContextBudget({ keepRecentToolTurns: 1.5 })).toThrow('keepRecentToolTurns must be a whole number');
    expect(() => resolveContextBudget({ contextWindow: 5 } as never)).toThrow('unknown setting "contextWindow"');
  });

  it('never gives a negative input limit', () => {
    expect(effectiveInputLimit({ contextWindowTokens: 4_000, reservedOutputTokens: 8_192 })).toBe(0);
  });
});

describe('TokenLedger', () => {
  it('estimates each message once and sums remembered counts after that', () => {
    const ledger = new TokenLedger();
    const a = user('a'.repeat(400));
    const b = user('b'.repeat(800));
    const first = ledger.total([a, b]);
    expect(first).toBeGreaterThanOrEqual(300);
    expect(ledger.estimates).toBe(2);
    const c = user('c'.repeat(40));
    expect(ledger.total([a, b, c])).toBe(first + ledger.tokensOf(c));
    expect(ledger.estimates).toBe(3);
  });

  it('counts a message again only after it is invalidated', () => {
    const ledger = new TokenLedger();
    const m = { role: 'user' as const, content: 'short' };
    const before = ledger.tokensOf(m);
    m.content = 'much longer now '.repeat(100);
    expect(ledger.tokensOf(m)).toBe(before);
    ledger.invalidate(m);
    expect(ledger.tokensOf(m)).toBeGreaterThan(before);
    expect(ledger.estimates).toBe(2);
  });
});
