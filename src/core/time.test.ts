import { describe, expect, it } from 'vitest';
import { keyToIso, keyToMillis, keyToParts, partsToKey, toTimeKey } from './time.js';

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

  it('converts keys to stored parts and back as Date does, whichever second came before', () => {
    // keyToMillis and partsToKey remember the last second they converted: every answer must still
    // be the Date-based one, across second boundaries, repeats, jumps back and odd inputs.
    const reference = {
      millis: (key: string) => Date.parse(`${key.slice(0, 23)}Z`),
      key: (ms: number, ns: number) => `${new Date(ms).toISOString().slice(0, 23)}${String(ns).padStart(6, '0')}Z`,
    };
    const base = Date.parse('2026-02-17T14:30:58.000Z');
    const millis = [base, base + 999, base + 1000, base + 1001, base + 2500, base + 999, base, 0, 999, 1000, 951782400000, 253402300799999, base + 86_400_000];
    for (const ms of millis) {
      for (const ns of [0, 1, 999999]) {
        const key = partsToKey(ms, ns);
        expect(key).toBe(reference.key(ms, ns));
        expect(keyToMillis(key)).toBe(reference.millis(key));
        expect(keyToParts(key)).toEqual([ms, ns]);
      }
    }
    // Outside the four-digit years and non-integer milliseconds take Date's path unchanged.
    for (const ms of [-1, -1500, 253402300800000, 1.5]) expect(partsToKey(ms, 7)).toBe(reference.key(ms, 7));
    for (const key of ['2026-02-17T14:30:58Z', '2026-02-17T14:30:58.5Z', '2026-02-17T14:30:58.12', '2026-02-17T14:30:58.1x3000000Z', 'garbage']) {
      expect(keyToMillis(key)).toEqual(reference.millis(key));
    }
  });
});
