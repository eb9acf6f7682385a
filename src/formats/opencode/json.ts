// Reading OpenCode records without trusting their shape: every accessor answers undefined for
// anything unexpected, and text is cut before it is handed on (tool outputs run to megabytes).

import { asNumber } from '../shared/json-values.js';

export { asObj as asObject, asNumber, asString, clip, SUMMARY_SOURCE_CHARS, type Obj } from '../shared/json-values.js';



/** A non-empty string after trimming, else undefined (ccusage ignores blank model and provider ids). */
export function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}


/** A token count: a non-negative whole number, else 0 (as ccusage reads them). */
export function count(value: unknown): number {
  const n = asNumber(value);
  return n !== undefined && n > 0 ? Math.floor(n) : 0;
}


/** Milliseconds since the epoch as an ISO timestamp, or undefined when not a plausible number. */
export function msToIso(value: unknown): string | undefined {
  const ms = asNumber(value);
  if (ms === undefined || ms <= 0) return undefined;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
