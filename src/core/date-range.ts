// date_range arguments of the analyst tools: named windows (today, yesterday, last_week,
// last_month) and explicit inclusive day ranges, all in UTC days. The clock is a parameter so
// that a caller (and a test) decides what "today" is; results never echo it.

import { InvalidArguments } from './errors.js';

/** A half-open interval of time keys (core/time.ts form): from ≤ key < before. */
export interface TimeKeyRange {
  from: string;
  before: string;
}

export const DATE_RANGE_FORMS =
  'today, yesterday, last_week (the last 7 days, today included), last_month (the last 30 days, today included), YYYY-MM-DD (one day) or YYYY-MM-DD:YYYY-MM-DD (both days included), in UTC';

const DAY_MS = 86_400_000;
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Midnight UTC (ms) of a calendar day, or null for a day that does not exist (2025-02-30). */
function parseDay(text: string): number | null {
  const m = DAY_RE.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms;
}

function key(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000000Z`;
}

function range(fromMs: number, beforeMs: number): TimeKeyRange {
  return { from: key(fromMs), before: key(beforeMs) };
}

/**
 * The time-key interval a date_range names. Throws InvalidArguments (stating the accepted forms)
 * for anything else, and for a range whose end is before its start.
 *
 * @example parseDateRange('2025-01-01:2025-01-31') // { from: '2025-01-01T00:00:00.000000000Z', before: '2025-02-01T00:00:00.000000000Z' }
 */
export function parseDateRange(spec: string, now: number = Date.now()): TimeKeyRange {
  const text = spec.trim();
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  switch (text) {
    case 'today':
      return range(today, today + DAY_MS);
    case 'yesterday':
      return range(today - DAY_MS, today);
    case 'last_week':
      return range(today - 6 * DAY_MS, today + DAY_MS);
    case 'last_month':
      return range(today - 29 * DAY_MS, today + DAY_MS);
  }
  const parts = text.split(':');
  const days = parts.length <= 2 ? parts.map(parseDay) : [null];
  if (days.some((d) => d === null)) {
    throw InvalidArguments(`date_range "${spec}" is not a date range. Use ${DATE_RANGE_FORMS}.`);
  }
  const first = days[0]!;
  const last = days[days.length - 1]!;
  if (last < first) {
    throw InvalidArguments(`date_range "${spec}" ends before it starts: put the earlier day first (${DATE_RANGE_FORMS}).`);
  }
  return range(first, last + DAY_MS);
}
