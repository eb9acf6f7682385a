import { describe, expect, it } from 'vitest';
import { keyToIso, toTimeKey } from './time.js';

describe('time keys', () => {
  it('keeps full precision and normalises to UTC', () => {
    expect(toTimeKey('2026-02-17T14:30:00+00:00')).toBe('2026-02-17T14:30:00.000000000Z');
    expect(toTimeKey('2026-02-17T14:30:00.123456+00:00')).toBe('2026-02-17T14:30:00.123456000Z');
    expect(toTimeKey('2026-06-18T00:43:07.206859206+00:00')).toBe('2026-06-18T00:43:07.206859206Z');
    expect(toTimeKey('2026-02-10T21:11:52.438Z')).toBe('2026-02-10T21:11:52.438000000Z');
    expect(toTimeKey('2026-02-10T23:30:00.5+02:00')).toBe('2026-02-10T21:30:00.500000000Z');
    expect(toTimeKey('2026-02-29T10:00:00Z')).toBe('2026-03-01T10:00:00.000000000Z');
  });

  it('gives the same key on the fast and the general path', () => {
    for (const v of ['2026-01-31T23:59:59.999Z', '2026-12-31T00:00:00.000001+00:00', '2026-07-04T12:00:00+00:00']) {
      expect(toTimeKey(v)).toBe(toTimeKey(v.replace('T', ' ')));
    }
  });

  it('rejects what is not a timestamp', () => {
    for (const v of ['yesterday', '', '2026-13-01T00:00:00Z', '12:00', 42, null]) expect(toTimeKey(v)).toBeNull();
  });

  it('shows milliseconds in results', () => {
    expect(keyToIso(toTimeKey('2026-06-18T00:43:07.206859206+00:00'))).toBe('2026-06-18T00:43:07.206Z');
  });
});
