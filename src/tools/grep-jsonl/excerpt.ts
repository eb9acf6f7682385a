// Where the pattern matched inside a matching line, and a bounded excerpt around it, so that a
// person (or an agent) sees the matched text of a 50 KB JSONL line without reading the line. Run
// on the main thread for the page's hits only (at most `limit` lines), with the engine that found
// them: RE2 on the line's bytes (linear time, byte offsets directly), else the screened V8 regex.

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
    return (bytes, text) => {
      const m = re.matcher(bytes);
      if (!m.find()) return null;
      const startByte = m.start();
      const endByte = m.end();
      const startChar = bytes.toString('utf8', 0, startByte).length;
      return { startByte, endByte, startChar, endChar: startChar + bytes.toString('utf8', startByte, endByte).length };
    };
  }
  const re = compileUserPattern(plan.pattern, { ignoreCase: plan.ignoreCase });
  const one = new RegExp(re.source, re.flags.replace(/[gy]/g, ''));
  return (_bytes, text) => {
    const m = one.exec(text);
    if (!m) return null;
    const startByte = Buffer.byteLength(text.slice(0, m.index));
    return { startChar: m.index, endChar: m.index + m[0].length, startByte, endByte: startByte + Buffer.byteLength(m[0]) };
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
