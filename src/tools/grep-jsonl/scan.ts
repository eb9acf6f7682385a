// The grep scanner. Never line by line (per-line decoding is what makes a naive grep 30–60× slower
// than ripgrep): candidate lines come from a byte search for the pattern's required literal, or
// from one regex run over the whole decompressed block, match positions mapped back to lines.
// A candidate counts only if the pattern holds for its line alone, so a `\s` or `[^x]` that matches
// across a newline, or a `^`/`$` that V8's multiline mode also sees at U+2028, never counts.

import { isAscii } from 'node:buffer';
import type { EvidenceBlockView } from '../../store/store.js';
import { literalFinder } from './literal-finder.js';
import { byteSafe } from './pattern-facts.js';

type Lines = EvidenceBlockView['lines'];

/** Start and end (exclusive, before the newline) of each line in the decoded text; null if the text does not split into the block's lines. */
function charBounds(text: string, lines: Lines): { starts: Int32Array; ends: Int32Array } | null {
  const n = lines.length;
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  let start = 0;
  for (let k = 0; k < n; k++) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    starts[k] = start;
    ends[k] = end;
    start = end + 1;
  }
  const last = lines[n - 1]!;
  const expected = last.status === 'incomplete' ? text.length : text.length - 1;
  return ends[n - 1] === expected ? { starts, ends } : null;
}

function lineAt(starts: ArrayLike<number>, n: number, pos: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export interface BlockMatcher {
  /** `g` + `m` flags: runs over the whole block. */
  scanner: RegExp;
  /** No flags: decides for one line. */
  line: RegExp;
  /** The pattern has `^` or `$`: every candidate is decided on its line alone. */
  anchored: boolean;
  /** Text every matching line contains (see pattern-facts.ts), as UTF-8 bytes, or as a case-insensitive search; or null. */
  literal: { bytes: Buffer } | { caseless: RegExp } | null;
  /** The pattern only ever matches ASCII: blocks may be decoded as latin1 (see pattern-facts.ts). */
  byteSafe: boolean;
}

const LITERAL_CHARS = 32;

/**
 * `literal` narrows the scan to lines that contain it. With ignore_case, only an ASCII literal
 * is used: searched with the `i` flag (safe: a plain string has nothing to backtrack over) on the
 * latin1-decoded block, where no non-ASCII character can fold onto an ASCII letter.
 */
export function blockMatcher(scanner: RegExp, line: RegExp, literal: string | null, ignoreCase: boolean): BlockMatcher {
  const base = { scanner, line, anchored: /[\^$]/.test(scanner.source), byteSafe: byteSafe(scanner.source) };
  const text = literal?.slice(0, LITERAL_CHARS) ?? null;
  if (text === null || (ignoreCase && !/^[\x00-\x7f]*$/.test(text))) return { ...base, literal: null };
  const found = ignoreCase
    ? { caseless: new RegExp(text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'), 'gi') }
    : { bytes: Buffer.from(text, 'utf8') };
  return { ...base, literal: found };
}

/**
 * Call `hit(k)` for every line k of the block that matches, in order. ASCII blocks, and any block
 * when the pattern is byte-safe, are decoded as latin1: character offsets are byte offsets and
 * the stored line index maps matches directly. Otherwise the block is decoded as UTF-8 (invalid
 * bytes become U+FFFD, as in `raw`) and line bounds are found from the newlines.
 */
export function matchBlock(block: EvidenceBlockView, m: BlockMatcher, hit: (k: number) => void): void {
  const { data, lines } = block;
  const n = lines.length;
  if (n === 0) return;
  if (m.literal) return matchByLiteral(block, m, m.literal, hit);
  const ascii = isAscii(data);
  const bytewise = ascii || m.byteSafe;
  const text = data.toString(bytewise ? 'latin1' : 'utf8');
  const re = m.scanner;
  re.lastIndex = 0;
  let found = re.exec(text);
  if (found === null) return; // most blocks: no line bounds needed at all
  let starts: ArrayLike<number>;
  let ends: ArrayLike<number>;
  // A line is always decided on its UTF-8 text; latin1 only finds the candidates.
  const lineText = (start: number, end: number) => (bytewise && !ascii ? data.toString('utf8', start, end) : text.slice(start, end));
  if (bytewise) {
    starts = lines.map((l) => l.start);
    ends = lines.map((l) => l.start + l.length);
  } else {
    const bounds = charBounds(text, lines);
    if (!bounds) return matchLines(block, m, lines.keys(), hit);
    ({ starts, ends } = bounds);
  }
  for (;;) {
    const k = lineAt(starts, n, found.index);
    const start = starts[k]!;
    const end = ends[k]!;
    const inside = found.index + found[0].length <= end;
    if ((inside && !m.anchored) || m.line.test(lineText(start, end))) hit(k);
    if (k + 1 >= n) return;
    re.lastIndex = starts[k + 1]!;
    found = re.exec(text);
    if (found === null) return;
  }
}

/** Test only the given lines (indexes into the block), each decoded on its own. */
export function matchLines(block: EvidenceBlockView, m: BlockMatcher, indexes: Iterable<number>, hit: (k: number) => void): void {
  for (const k of indexes) {
    const l = block.lines[k]!;
    if (m.line.test(block.data.toString('utf8', l.start, l.start + l.length))) hit(k);
  }
}

/** Candidate lines by a search for the required literal (byte offsets); only those lines are decoded and tested. */
function matchByLiteral(block: EvidenceBlockView, m: BlockMatcher, literal: NonNullable<BlockMatcher['literal']>, hit: (k: number) => void): void {
  const { data, lines } = block;
  const n = lines.length;
  let find: (from: number) => number;
  if ('bytes' in literal) find = literalFinder(data, literal.bytes);
  else {
    const text = data.toString('latin1');
    const re = literal.caseless;
    find = (from) => {
      re.lastIndex = from;
      return re.exec(text)?.index ?? -1;
    };
  }
  let at = find(0);
  if (at === -1) return;
  const starts = lines.map((l) => l.start);
  for (;;) {
    const k = lineAt(starts, n, at);
    const l = lines[k]!;
    if (at < l.start + l.length && m.line.test(data.toString('utf8', l.start, l.start + l.length))) hit(k);
    if (k + 1 >= n) return;
    at = find(starts[k + 1]!);
    if (at === -1) return;
  }
}
