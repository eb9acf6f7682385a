import { describe, expect, it } from 'vitest';
import { checkTimeZone, dayIn, isOffsetFree, OFFSET_FREE_ZONES, timeZoneProblem } from './time-zone.js';

/** The day Intl gives for `ms` in `zone`, as the general path computes it. */
function intlDay(ms: number, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(ms);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

// Around midnight UTC, at a northern and a southern summer, and on a leap day.
const INSTANTS = ['2026-01-01T00:00:00.000Z', '2025-12-31T23:59:59.999Z', '2026-07-15T23:30:00Z', '2026-07-16T00:30:00Z', '2024-02-29T12:00:00Z'].map(Date.parse);

describe('offset-free zones', () => {
  it('are zones Intl knows, always at UTC: their days are the UTC days Intl gives, in any case of the name', () => {
    for (const zone of OFFSET_FREE_ZONES) {
      for (const name of [zone, zone.toLowerCase(), zone.toUpperCase()]) {
        expect(isOffsetFree(name), name).toBe(true);
        expect(timeZoneProblem(name), name).toBeNull();
        for (const ms of INSTANTS) expect(dayIn(ms, name), `${name} ${ms}`).toBe(intlDay(ms, zone));
      }
    }
  });

  it('leave zones with an offset to Intl, with the same days as before', () => {
    for (const zone of ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Etc/GMT+5', 'Etc/GMT-14']) {
      expect(isOffsetFree(zone), zone).toBe(false);
      expect(checkTimeZone(zone)).toBe(zone);
      for (const ms of INSTANTS) expect(dayIn(ms, zone), `${zone} ${ms}`).toBe(intlDay(ms, zone));
    }
    expect(dayIn(Date.parse('2026-07-15T23:30:00Z'), 'Europe/Berlin')).toBe('2026-07-16');
  });

  it('still refuse names that are no zone', () => {
    for (const name of ['', 'Mars/Olympus', 'UTC+1', 'GMT+00']) expect(timeZoneProblem(name), name).toMatch(/unknown time zone/);
    expect(() => checkTimeZone('Mars/Olympus')).toThrow(/unknown time zone "Mars\/Olympus"/);
  });
});
