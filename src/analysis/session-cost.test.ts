import { describe, expect, it } from 'vitest';
import { costLabel } from './session-cost.js';

describe('costLabel', () => {
  const cost = (cost_usd: number | null, partial = false, calls = 3) => ({ cost_usd, partial, unpriced_models: partial || cost_usd === null ? ['x-model'] : [], calls });

  it('prints dollars, a lower bound when some calls have no price, and never $0 for what has none', () => {
    expect(costLabel(cost(11.657))).toBe('$11.66');
    expect(costLabel(cost(1234.5))).toBe('$1235');
    expect(costLabel(cost(1.2, true))).toBe('≥ $1.20 (partial)');
    expect(costLabel(cost(null))).toBe('unpriced');
    expect(costLabel(cost(0.004))).toBe('< $0.01');
    expect(costLabel(undefined)).toBe('—');
    expect(costLabel(cost(null, false, 0))).toBe('—');
  });
});
