// Where the pattern matched inside a matching line, and a bounded excerpt around it, so that a
// person (or an agent) sees the matched text of a 50 KB JSONL line without reading the line. Run
// on the main thread for the page's hits only (at most `limit` lines): the screened V8 regex, with
// RE2 on the line's bytes where the search ran RE2 and V8 would be slow or unsure (quickFirst).

import { isUtf8 } from 'node:buffer';
import { compileUserPattern, type SearchPlan } from '../../core/safe-regex.js';

/** Characters of context kept on each side of the match. */
export const EXCERPT_CONTEXT = 120;
/** Characters of the match itself kept in the excerpt (a `.*` can match a whole line). */
export const EXCERPT_MATCH_MAX = 400;

export interface MatchPlace {
  /** Byte offset of the first match from the start of the line, and its length in bytes. */
  match_offset: number;
  match_length: number;
  /** The line around the match: up to EXCERPT_CONTEXT characters each side ("…" marks a cut). */
  excerpt: string;
  /** Start and end of the match inside `excerpt` (JavaScript string indexes, end exclusive). */
  excerpt_match: [number, number];
}

type Finder = (bytes: Buffer, text: string) => { startChar: number; endChar: number; startByte: number; endByte: number } | null;

/** A finder for the plan's pattern (RE2 loaded on first use, as the search worker loads it). */
export async function matchFinder(plan: SearchPlan): Promise<Finder> {
  if (plan.engine === 're2') {
    const { RE2JS } = await import('re2js');
    const re = RE2JS.compile(plan.source);
    const re2: Finder = (bytes) => {
      const m = re.matcher(bytes);
      if (!m.find()) return null;
      const startByte = m.start();
      const endByte = m.end();
      const startChar = bytes.toString('utf8', 0, startByte).length;
      return { startChar, endChar: startChar + bytes.toString('utf8', startByte, endByte).length, startByte, endByte };
    };
    let quick: Finder;
    try {
      quick = v8Finder(plan);
    } catch {
      return re2; // screened out of V8 (a construct its linear engine refuses): RE2 alone, as it searched
    }
    return quickFirst(quick, re2);
  }
  return v8Finder(plan);
}

/** The screened V8 regex on the line's text (the user's own syntax and meaning). */
function v8Finder(plan: SearchPlan): Finder {
  const re = compileUserPattern(plan.pattern, { ignoreCase: plan.ignoreCase });
  const one = new RegExp(re.source, re.flags.replace(/[gy]/g, ''));
  return (_bytes, text) => {
    const m = one.exec(text);
    if (!m) return null;
    const startByte = Buffer.byteLength(text.slice(0, m.index));
    return { startChar: m.index, endChar: m.index + m[0].length, startByte, endByte: startByte + Buffer.byteLength(m[0]) };
  };
}

/** Lines longer than this are placed by RE2 alone (the most a slow V8 line can cost is bounded by it). */
const QUICK_LINE_BYTES = 16 * 1024;
/** A line V8 took longer than this to place: the pattern backtracks, and RE2 places every later line. */
const QUICK_LINE_MS = 2;

/**
 * Placing a match with RE2 (re2js's matcher, an NFA over the bytes) costs ~70 µs per 3 KB line
 * for `"[a-z_]+": "[^"]*[Ee]rror` — 35 ms of a 500-line page on this thread — where V8's
 * backtracking engine takes ~3 µs. But V8 is fast only while it does not backtrack much: past
 * its limit it falls back to its linear engine, ~4 µs per byte on the worst patterns. So V8
 * places short, valid UTF-8 lines (its offsets are in characters of the decoded text) until one
 * line takes longer than QUICK_LINE_MS, and RE2 everything else, as before; a line V8 finds no
 * match in is placed by RE2 too (the search found the line with RE2). The match is the user's
 * pattern's first in the line under either engine: RE2 runs only patterns it says the same way.
 */
function quickFirst(quick: Finder, re2: Finder): Finder {
  let slow = false;
  return (bytes, text) => {
    if (!slow && bytes.length <= QUICK_LINE_BYTES && isUtf8(bytes)) {
      const started = performance.now();
      const m = quick(bytes, text);
      if (performance.now() - started > QUICK_LINE_MS) slow = true;
      if (m) return m;
    }
    return re2(bytes, text);
  };
}

/** Do not cut between the halves of a surrogate pair. */
function safeCut(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return at > 0 && at < text.length && code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}

/**
 * The first match in a line and the excerpt around it; null when the pattern holds for the line
 * only as a whole (cannot happen for lines the search returned, kept for safety).
 *
 * @example placeMatch(find, Buffer.from('{"a":"Traceback here"}'), '{"a":"Traceback here"}') // excerpt_match [6, 15]
 */
export function placeMatch(find: Finder, bytes: Buffer, text: string): MatchPlace | null {
  const m = find(bytes, text);
  if (!m) return null;
  const matchEnd = safeCut(text, Math.min(m.endChar, m.startChar + EXCERPT_MATCH_MAX));
  const from = safeCut(text, Math.max(0, m.startChar - EXCERPT_CONTEXT));
  const to = safeCut(text, Math.min(text.length, matchEnd + EXCERPT_CONTEXT));
  const head = from > 0 ? '…' : '';
  // A match cut to EXCERPT_MATCH_MAX ends the excerpt; otherwise context follows it.
  const excerpt = matchEnd < m.endChar ? `${head}${text.slice(from, matchEnd)}…` : `${head}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
  const start = head.length + (m.startChar - from);
  return { match_offset: m.startByte, match_length: m.endByte - m.startByte, excerpt, excerpt_match: [start, start + (matchEnd - m.startChar)] };
}
