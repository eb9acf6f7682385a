// Calendar days in a chosen IANA time zone, for usage reports (ccusage's --timezone): a call at
// 23:30 UTC belongs to the next day in Europe/Berlin. UTC stays the default so reports never
// depend on the machine they run on.

import { InvalidArguments } from '../core/errors.js';

export const DEFAULT_TIME_ZONE = 'UTC';

/**
 * The IANA names (matched without regard to case, as Intl matches them) of zones that are UTC at
 * every instant: their days are UTC days. Answered without Intl, because the first
 * Intl.DateTimeFormat of a process loads ICU's zone data (65 ms of a warm `hindsight usage`
 * profile, its largest single cost) for an answer known in advance. time-zone.test.ts holds each one to Intl's answer.
 */
export const OFFSET_FREE_ZONES: readonly string[] = [
  'UTC', 'Etc/UTC', 'UCT', 'Etc/UCT', 'Universal', 'Etc/Universal', 'Zulu', 'Etc/Zulu',
  'GMT', 'Etc/GMT', 'GMT0', 'Etc/GMT0', 'GMT+0', 'Etc/GMT+0', 'GMT-0', 'Etc/GMT-0', 'Greenwich', 'Etc/Greenwich',
];
const offsetFree = new Set(OFFSET_FREE_ZONES.map((z) => z.toLowerCase()));

/** Whether `zone` names a zone whose days are always UTC days (no offset, ever). */
export function isOffsetFree(zone: string): boolean {
  return offsetFree.has(zone.toLowerCase());
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Why `name` is not a usable time zone, or null when it is. */
export function timeZoneProblem(name: string): string | null {
  if (isOffsetFree(name) || formatterFor(name)) return null;
  return `unknown time zone "${name}": give an IANA name such as UTC, Europe/Berlin or America/New_York`;
}

/** The name checked; an unknown zone is an argument error that names it. */
export function checkTimeZone(name: string): string {
  const problem = timeZoneProblem(name);
  if (problem) throw InvalidArguments(`timezone: ${problem}.`);
  return name;
}

function formatterFor(zone: string): Intl.DateTimeFormat | null {
  let f = formatters.get(zone);
  if (f) return f;
  if (zone.trim() === '') return null;
  try {
    // en-CA writes dates as YYYY-MM-DD; the parts are read by type below, not by position.
    f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
  } catch {
    return null; // RangeError: not a zone this runtime knows
  }
  formatters.set(zone, f);
  return f;
}

/** The calendar day (YYYY-MM-DD) of an instant in `zone`. */
export function dayIn(ms: number, zone: string): string {
  if (zone === DEFAULT_TIME_ZONE || isOffsetFree(zone)) return new Date(ms).toISOString().slice(0, 10);
  const f = formatterFor(zone);
  if (!f) throw InvalidArguments(`timezone: ${timeZoneProblem(zone)}.`);
  const parts = f.formatToParts(ms);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The day `days` after (or before, if negative) a calendar day, both YYYY-MM-DD. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Weekday of a calendar day: 0 Sunday … 6 Saturday. */
export function weekdayOf(day: string): number {
  return new Date(`${day}T00:00:00Z`).getUTCDay();
}
