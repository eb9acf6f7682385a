import { describe, expect, it } from 'vitest';
import { HindsightError } from './errors.js';
import { parseDateRange } from './date-range.js';

// A fixed clock: Wednesday 2026-03-04, mid-afternoon UTC.
const NOW = Date.UTC(2026, 2, 4, 15, 20, 0);
const k = (day: string) => `${day}T00:00:00.000000000Z`;

describe('parseDateRange', () => {
  it('named windows are whole UTC days ending with today (today included)', () => {
    expect(parseDateRange('today', NOW)).toEqual({ from: k('2026-03-04'), before: k('2026-03-05') });
    expect(parseDateRange('yesterday', NOW)).toEqual({ from: k('2026-03-03'), before: k('2026-03-04') });
    expect(parseDateRange('last_week', NOW)).toEqual({ from: k('2026-02-26'), before: k('2026-03-05') });
    expect(parseDateRange('last_month', NOW)).toEqual({ from: k('2026-02-03'), before: k('2026-03-05') });
  });

  it('an explicit range includes both days; a single day is that day; spaces around are ignored', () => {
    expect(parseDateRange('2025-01-01:2025-01-31', NOW)).toEqual({ from: k('2025-01-01'), before: k('2025-02-01') });
    expect(parseDateRange('2024-02-29:2024-02-29', NOW)).toEqual({ from: k('2024-02-29'), before: k('2024-03-01') });
    expect(parseDateRange('2025-12-31', NOW)).toEqual({ from: k('2025-12-31'), before: k('2026-01-01') });
    expect(parseDateRange(' today ', NOW)).toEqual(parseDateRange('today', NOW));
  });

  it('does not depend on the clock for explicit ranges', () => {
    expect(parseDateRange('2025-01-01:2025-01-02', 0)).toEqual(parseDateRange('2025-01-01:2025-01-02', NOW));
  });

  it('rejects malformed ranges with a sentence naming the accepted forms', () => {
    for (const bad of ['', 'tomorrow', 'last week', '2025-1-1:2025-01-31', '2025-02-30:2025-03-01', '2025-01-01:', ':2025-01-01', '2025-01-01:2025-01-02:2025-01-03', '2025-13-01', 'TODAY']) {
      let caught: unknown;
      try {
        parseDateRange(bad, NOW);
      } catch (err) {
        caught = err;
      }
      expect(caught, bad).toBeInstanceOf(HindsightError);
      expect((caught as HindsightError).code).toBe('INVALID_ARGUMENTS');
      expect((caught as HindsightError).message).toContain('last_week');
      expect((caught as HindsightError).message).toContain('YYYY-MM-DD:YYYY-MM-DD');
    }
  });

  it('rejects an inverted range, saying so', () => {
    expect(() => parseDateRange('2025-02-01:2025-01-01', NOW)).toThrow(/ends before it starts/);
  });
});
