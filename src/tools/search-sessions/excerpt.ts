// Excerpts: at most 300 characters of one line of text around the first place a query term
// occurs. The search index is contentless, so a transcript excerpt comes from the event's raw
// evidence line (its longest string value holding a term), or from its summary.

import { redactText } from '../../core/redact.js';
import type { SearchTerm } from '../../store/store.js';

export const EXCERPT_CHARS = 300;
/** Characters kept before the term when the text must be cut. */
const LEAD = 100;
/** A string longer than this is cut to a window around the term before redaction and clean-up. */
const WINDOW = 2_000;
/** Lines larger than this are not parsed for an excerpt (the summary stands in). */
const MAX_PARSE_BYTES = 2 * 1024 * 1024;

/**
 * Lower-case and strip diacritics one UTF-16 unit at a time, so that positions in the folded text
 * are positions in the original (the index's tokenizer folds case and diacritics the same way).
 */
function fold(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c.charCodeAt(0) < 0x80) {
      out += c.toLowerCase();
      continue;
    }
    const base = c.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    const lower = c.toLowerCase();
    out += base.length === 1 ? base : lower.length === 1 ? lower : c;
  }
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One regex finding any term as the index would: whole tokens, phrase tokens separated by non-token text. */
export function termPattern(terms: SearchTerm[]): RegExp | null {
  const alternatives = terms.flatMap((t) => {
    const tokens = fold(t.text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    if (!tokens.length) return [];
    const end = t.kind === 'prefix' ? '' : '(?![\\p{L}\\p{N}])';
    return [`(?<![\\p{L}\\p{N}])${tokens.map(escape).join('[^\\p{L}\\p{N}]+')}${end}`];
  });
  return alternatives.length ? new RegExp(alternatives.join('|'), 'u') : null;
}

function find(text: string, pattern: RegExp | null): number {
  if (!pattern) return -1;
  return fold(text).search(pattern);
}

/**
 * At most EXCERPT_CHARS characters of `text` on one line, around the first term found (its
 * start when none is), with `…` where it was cut. Secrets are redacted before the cut, so a cut
 * never leaves a recognisable key half-visible.
 */
export function cutExcerpt(text: string, pattern: RegExp | null, redact: boolean): string {
  let s = text;
  let cutLeft = false;
  let cutRight = false;
  if (s.length > WINDOW) {
    const at = Math.max(0, find(s, pattern));
    const from = Math.max(0, at - WINDOW / 2);
    cutLeft = from > 0;
    cutRight = from + WINDOW < s.length;
    s = s.slice(from, from + WINDOW);
  }
  if (redact) s = redactText(s);
  s = s.replace(/\s+/g, ' ').trim();
  if (s.length + (cutLeft ? 1 : 0) + (cutRight ? 1 : 0) <= EXCERPT_CHARS) return `${cutLeft ? '…' : ''}${s}${cutRight ? '…' : ''}`;
  const budget = EXCERPT_CHARS - 2;
  const at = Math.max(0, find(s, pattern));
  let start = Math.max(0, at - LEAD);
  let end = Math.min(s.length, start + budget);
  start = Math.max(0, end - budget);
  // Never split a surrogate pair at either edge.
  if (start > 0 && /[\uDC00-\uDFFF]/.test(s[start]!)) start++;
  if (end < s.length && /[\uDC00-\uDFFF]/.test(s[end]!)) end--;
  return `${cutLeft || start > 0 ? '…' : ''}${s.slice(start, end)}${cutRight || end < s.length ? '…' : ''}`;
}

/** String values of a JSON value in document order (keys left out). */
function strings(value: unknown, out: string[]): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/**
 * The text of a matched message line to cut an excerpt from: the longest string of the raw JSON
 * line that holds a term (the message itself rather than, say, a cwd that happens to), else the
 * summary, else the raw line.
 */
export function messageText(raw: Buffer | undefined, summary: string, pattern: RegExp | null): string {
  if (!raw || raw.length > MAX_PARSE_BYTES) return summary;
  const line = raw.toString('utf8');
  let values: string[];
  try {
    values = strings(JSON.parse(line), []);
  } catch {
    values = [line];
  }
  let best: string | undefined;
  for (const v of values) if ((best === undefined || v.length > best.length) && find(v, pattern) >= 0) best = v;
  return best ?? (summary || line);
}
