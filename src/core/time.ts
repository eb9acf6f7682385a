// Timestamp handling: a sortable key with the source's full precision, and the output form.
//
// Sources write ISO-8601 with 0–9 fractional digits and various offsets (Python isoformat,
// nanosecond Amplifier stamps, JS toISOString). Results use milliseconds in UTC; ordering uses
// the key, which keeps nanoseconds so that events a microsecond apart never tie.

const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,12}))?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Parse an ISO-8601 timestamp into a sort key `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ` (UTC, nanoseconds).
 * Returns null when the value is not a recognisable timestamp. A timestamp without offset is
 * taken as UTC (the writers we read all log UTC).
 *
 * @example toTimeKey('2026-02-17T14:30:00+00:00') // '2026-02-17T14:30:00.000000000Z'
 */
export function toTimeKey(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const fast = fastUtcKey(value);
  if (fast !== null) return fast;
  const m = ISO_RE.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, off] = m;
  const fracDigits = (frac ?? '').slice(0, 9).padEnd(9, '0');
  let offsetMinutes = 0;
  if (off && off !== 'Z' && off !== 'z') {
    const sign = off[0] === '-' ? -1 : 1;
    const digits = off.slice(1).replace(':', '');
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
  }
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s ?? '0') > 60) {
    return null;
  }
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? '0'));
  if (!Number.isFinite(ms)) return null;
  const date = new Date(ms - offsetMinutes * 60_000);
  if (Number.isNaN(date.getTime())) return null;
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.000Z
  return `${iso.slice(0, 19)}.${fracDigits}Z`;
}

/**
 * The plausible window for a log's timestamps: [2000-01-01, 2100-01-01) UTC. Agent logs did not
 * exist before it, and a stamp past it (year 9999, a sentinel, a clock bug) would make a session
 * look years long and sort first in every listing. Fixed, never the wall clock, so results stay
 * deterministic. A timestamp outside is reported (`implausible_timestamp`) and not used for order.
 */
export const PLAUSIBLE_FROM_KEY = '2000-01-01T00:00:00.000000000Z';
export const PLAUSIBLE_BEFORE_KEY = '2100-01-01T00:00:00.000000000Z';

/** Whether a sort key falls inside the plausible window (keys compare as strings). */
export function isPlausibleKey(key: string): boolean {
  return key >= PLAUSIBLE_FROM_KEY && key < PLAUSIBLE_BEFORE_KEY;
}

const DIGITS = '000000000';

/**
 * The common UTC spellings (`…SS.sssZ`, `…SS.ffffff+00:00`, `…SS+00:00`) without a regex or a
 * Date: this runs once per event. Anything else (other offsets, odd shapes) returns null and
 * takes the general path, which also validates the calendar.
 */
function fastUtcKey(v: string): string | null {
  if (v.length < 20 || v.charCodeAt(10) !== 0x54 /* T */ || v.charCodeAt(4) !== 0x2d || v.charCodeAt(19) === undefined) return null;
  let end: number;
  if (v.endsWith('Z')) end = v.length - 1;
  else if (v.endsWith('+00:00')) end = v.length - 6;
  else return null;
  const month = Number(v.slice(5, 7));
  const day = Number(v.slice(8, 10));
  const hour = Number(v.slice(11, 13));
  const minute = Number(v.slice(14, 16));
  const second = Number(v.slice(17, 19));
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= 28 && hour <= 23 && minute <= 59 && second <= 59)) return null;
  if (v.charCodeAt(7) !== 0x2d || v.charCodeAt(13) !== 0x3a || v.charCodeAt(16) !== 0x3a) return null;
  if (end === 19) return `${v.slice(0, 19)}.${DIGITS}Z`;
  if (v.charCodeAt(19) !== 0x2e || end - 20 > 9 || end - 20 < 1) return null;
  const frac = v.slice(20, end);
  for (let i = 0; i < frac.length; i++) {
    const c = frac.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return null;
  }
  return `${v.slice(0, 19)}.${frac}${DIGITS.slice(frac.length)}Z`;
}

/** The output form of a key: `YYYY-MM-DDTHH:MM:SS.sssZ`. */
export function keyToIso(key: string | null | undefined): string | null {
  if (!key) return null;
  return `${key.slice(0, 23)}Z`;
}

// The last second converted each way. Both run once per event as it is written and read back for
// summaries, and events come in time order, so most keys share their second with the key before:
// one Date per second instead of one per event.
let millisSecond = '';
let millisOfSecond = 0;
let keySecond = Number.NaN;
let keyPrefix = '';
/** Up to 9999-12-31: past it toISOString writes a six-digit signed year. */
const LAST_FOUR_DIGIT_YEAR_MS = 253402300800000;

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** Milliseconds since the epoch of a key (sub-millisecond digits dropped). */
export function keyToMillis(key: string): number {
  // A whole key (`…SS.nnnnnnnnnZ`): the second's milliseconds, remembered, plus the fraction's first three digits.
  if (key.length === 30 && key.charCodeAt(19) === 0x2e && isDigit(key.charCodeAt(20)) && isDigit(key.charCodeAt(21)) && isDigit(key.charCodeAt(22))) {
    const second = key.slice(0, 19);
    if (second !== millisSecond) {
      millisOfSecond = Date.parse(`${second}Z`);
      millisSecond = second;
    }
    return millisOfSecond + (key.charCodeAt(20) - 0x30) * 100 + (key.charCodeAt(21) - 0x30) * 10 + (key.charCodeAt(22) - 0x30);
  }
  return Date.parse(`${key.slice(0, 23)}Z`);
}

/** Normalise any timestamp string to the output form, or null. */
export function toIso(value: unknown): string | null {
  return keyToIso(toTimeKey(value));
}

/** A key as two integers for compact storage: milliseconds since the epoch, and the nanoseconds within that millisecond. */
export function keyToParts(key: string): [number, number] {
  return [keyToMillis(key), Number(key.slice(23, 29))];
}

/** The key back from its two integers. */
export function partsToKey(ms: number, ns: number): string {
  if (Number.isInteger(ms) && ms >= 0 && ms < LAST_FOUR_DIGIT_YEAR_MS) {
    const second = Math.floor(ms / 1000);
    if (second !== keySecond) {
      keyPrefix = new Date(second * 1000).toISOString().slice(0, 20); // YYYY-MM-DDTHH:MM:SS.
      keySecond = second;
    }
    return `${keyPrefix}${String(ms - second * 1000).padStart(3, '0')}${String(ns).padStart(6, '0')}Z`;
  }
  return `${new Date(ms).toISOString().slice(0, 23)}${String(ns).padStart(6, '0')}Z`;
}
