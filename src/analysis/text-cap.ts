// Bounded values: a projected field or a message text never carries more than a fixed number of
// characters; what was left out is said in a visible marker at the cut, with its size.

import { redactText, redactValue } from '../core/redact.js';

/** Digits grouped by thousands without locale data, so that output is identical everywhere. */
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/gu, ',');
}

export const cutMarker = (chars: number): string => `…[cut ${groupDigits(chars)} chars]`;

/** `text` cut to `max` characters (code points kept whole) with the marker when longer. */
export function capText(text: string, max: number): { text: string; cut: number } {
  if (text.length <= max) return { text, cut: 0 };
  let end = Math.max(0, max);
  // Do not split a surrogate pair.
  if (end > 0 && /[\uD800-\uDBFF]/u.test(text[end - 1] ?? '')) end--;
  const cut = text.length - end;
  return { text: `${text.slice(0, end)}${cutMarker(cut)}`, cut };
}

/**
 * A JSON value bounded to `max` characters of its serialisation: scalars and small values are
 * returned as they are; a longer string is cut with the marker; a larger object or array becomes
 * its JSON text, cut with the marker (a string, so the cut is never mistaken for the value).
 * Secrets are redacted before cutting, so that a cut never leaves half a secret behind.
 */
export function capValue(value: unknown, max: number, redact: boolean): { value: unknown; cut: number } {
  const v = redact ? (typeof value === 'string' ? redactText(value) : redactValue(value)) : value;
  if (typeof v === 'string') {
    const r = capText(v, max);
    return { value: r.text, cut: r.cut };
  }
  if (v === null || typeof v !== 'object') return { value: v, cut: 0 };
  const json = JSON.stringify(v) ?? 'null';
  if (json.length <= max) return { value: v, cut: 0 };
  const r = capText(json, max);
  return { value: r.text, cut: r.cut };
}
