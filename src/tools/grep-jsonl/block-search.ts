// What the search worker does with one block: the indexes of its lines that match. A block is
// plain data (bytes, line starts and lengths) so it crosses threads as typed arrays.
//
// Engine rule (safe-regex.ts planUserSearch decides which): a required literal first narrows the
// block to candidate lines by a byte search (as ripgrep does; a pattern that is nothing but that
// literal is decided by the byte search alone). Then RE2 (re2js, on the UTF-8 bytes, never
// decoding) decides: once over the whole block, then over runs of 32 lines, then line by line only
// inside runs that match, so a block without a match costs one linear pass. Patterns RE2 cannot
// say run on V8 through scan.ts, as before this worker existed.

import { RE2JS } from 're2js';
import { compileUserPattern, lineRegExp, type SearchPlan } from '../../core/safe-regex.js';
import type { EvidenceBlockView } from '../../store/store.js';
import { literalFinder } from './literal-finder.js';
import { requiredLiteral } from './pattern-facts.js';
import { blockMatcher, matchBlock, matchLines } from './scan.js';

export interface SearchBlock {
  data: Uint8Array;
  starts: Int32Array;
  lengths: Int32Array;
  /** The last line has no newline yet (evidence of a file still being written). */
  lastIncomplete: boolean;
  /** Only these lines may match (a Control Plane session's own entries), or null for all. */
  only: Int32Array | null;
}

export type BlockSearch = (block: SearchBlock) => number[];

const RUN = 32;
const LITERAL_CHARS = 32;
const PLAIN = /^[^\\^$.|?*+()[\]{}]+$/;

/** Build the matcher for a plan (in the worker; also called directly by tests). */
export function blockSearch(plan: SearchPlan): BlockSearch {
  return plan.engine === 're2' ? re2Search(plan) : jsSearch(plan);
}

/** The first LITERAL_CHARS characters of the pattern's required literal (pattern-facts.ts: never a surrogate), or null. */
function leadingLiteral(pattern: string): string | null {
  return requiredLiteral(pattern)?.slice(0, LITERAL_CHARS) ?? null;
}

/**
 * Bytes every matching line holds (ignoring case: an ASCII literal, whose letters fold only onto
 * ASCII letters), or null: what the evidence scan may skip blocks by (their gram filters are
 * case-folded, so one needle serves either case).
 *
 * @example requiredBytes({ pattern: 'LED-[0-9a-f]{8}', ignoreCase: false }) // <Buffer 4c 45 44 2d>
 */
export function requiredBytes(plan: Pick<SearchPlan, 'pattern' | 'ignoreCase'>): Buffer | null {
  const text = leadingLiteral(plan.pattern);
  if (text === null || (plan.ignoreCase && !/^[\x00-\x7f]*$/.test(text))) return null;
  return Buffer.from(text, 'utf8');
}

function re2Search(plan: SearchPlan): BlockSearch {
  const line = RE2JS.compile(plan.source);
  const multi = RE2JS.compile(plan.source, RE2JS.MULTILINE); // ^ and $ at every line of a run
  const literal = plan.ignoreCase ? null : leadingLiteral(plan.pattern);
  const needle = literal === null ? null : Buffer.from(literal, 'utf8');
  const caseless = plan.ignoreCase ? caselessLiteral(plan.pattern) : null;
  // A pattern that is nothing but its literal is decided by finding it (ignoring case: an ASCII
  // literal, whose letters fold only onto ASCII letters, in JavaScript as in foldCase).
  const literalDecides = PLAIN.test(plan.pattern) && ((needle !== null && literal === plan.pattern) || (caseless !== null && caseless.toString('latin1') === plan.pattern.toLowerCase()));
  /** Bytes every candidate's match spans (the literal's), which must lie inside one line. */
  const span = needle?.length ?? (literalDecides ? plan.pattern.length : 0);
  return (b) => {
    const hits: number[] = [];
    const lineAt = (k: number) => b.data.subarray(b.starts[k]!, b.starts[k]! + b.lengths[k]!);
    if (b.only) {
      for (const k of b.only) if (line.test(lineAt(k))) hits.push(k);
      return hits;
    }
    const n = b.starts.length;
    if (needle !== null || caseless !== null) {
      const buf = Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength);
      const find = needle !== null ? literalFinder(buf, needle) : caselessFinder(buf, caseless!);
      for (let at = find(0); at !== -1; ) {
        const k = lineIndex(b.starts, at);
        if (at + span <= b.starts[k]! + b.lengths[k]! && (literalDecides || line.test(lineAt(k)))) hits.push(k);
        if (k + 1 >= n) break;
        at = find(b.starts[k + 1]!);
      }
      return hits;
    }
    if (n === 0 || !multi.test(b.data)) return hits;
    for (let first = 0; first < n; first += RUN) {
      const last = Math.min(first + RUN, n) - 1;
      if (!multi.test(b.data.subarray(b.starts[first]!, b.starts[last]! + b.lengths[last]!))) continue;
      for (let k = first; k <= last; k++) if (line.test(lineAt(k))) hits.push(k);
    }
    return hits;
  };
}

/**
 * An ASCII literal every match contains, lowered, to search for ignoring case; or null. Only
 * ASCII letters fold onto ASCII letters (in JavaScript's `i` without `u`, and in foldCase), so
 * lowering the ASCII letters of both sides finds exactly the case-insensitive occurrences.
 */
function caselessLiteral(pattern: string): Buffer | null {
  const text = leadingLiteral(pattern);
  if (text === null || !/^[\x00-\x7f]*$/.test(text)) return null;
  return Buffer.from(text.toLowerCase(), 'latin1');
}

/** A copy of the block with its ASCII letters lowered, kept for the next block (grown as needed; 3 bytes more, to match any alignment). */
let lowered = Buffer.allocUnsafeSlow(1 << 20);

/**
 * `buf` with its ASCII letters lowered, into `out` (as long, at the same alignment to 4 bytes):
 * four bytes at a time where both are aligned (SWAR: a byte is an upper-case letter when its low
 * seven bits are at least 'A' and below 'Z' + 1 and its high bit is clear; 0x80 >>> 2 is the
 * case bit), which took a quarter of the byte-by-byte loop's time.
 */
export function lowerAscii(buf: Uint8Array, out: Uint8Array): void {
  const n = buf.length;
  let i = 0;
  const lowerByte = (k: number) => {
    const c = buf[k]!;
    out[k] = c - 65 >>> 0 < 26 ? c | 32 : c;
  };
  for (; i < n && (buf.byteOffset + i) % 4 !== 0; i++) lowerByte(i);
  const words = (n - i) >>> 2;
  if (words > 0 && (out.byteOffset + i) % 4 === 0) {
    const src = new Uint32Array(buf.buffer, buf.byteOffset + i, words);
    const dst = new Uint32Array(out.buffer, out.byteOffset + i, words);
    for (let w = 0; w < words; w++) {
      const x = src[w]!;
      const low7 = x & 0x7f7f7f7f;
      dst[w] = x | (((low7 + 0x3f3f3f3f) & ~(low7 + 0x25252525) & ~x & 0x80808080) >>> 2);
    }
    i += words * 4;
  }
  for (; i < n; i++) lowerByte(i);
}

/** Where the lowered literal is in the block, ignoring the case of ASCII letters: a byte search over a lowered copy (a latin1 string and a `gi` regex cost twice as much). */
function caselessFinder(buf: Buffer, needle: Buffer): (from: number) => number {
  if (lowered.length < buf.length + 3) lowered = Buffer.allocUnsafeSlow(Math.max(buf.length + 3, lowered.length * 2));
  const skew = buf.byteOffset % 4; // the copy starts at the block's alignment, so both are read a word at a time
  const view = lowered.subarray(skew, skew + buf.length);
  lowerAscii(buf, view);
  return literalFinder(view, needle);
}

function lineIndex(starts: Int32Array, pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** V8 for the patterns RE2 cannot say (screened by compileUserPattern before they got here). */
function jsSearch(plan: SearchPlan): BlockSearch {
  // Compiled again here (not from plan.source) so this thread also sets V8's linear fallback.
  const scanner = compileUserPattern(plan.pattern, { ignoreCase: plan.ignoreCase });
  const matcher = blockMatcher(scanner, lineRegExp(scanner), leadingLiteral(plan.pattern), plan.ignoreCase);
  return (b) => {
    const n = b.starts.length;
    const lines: EvidenceBlockView['lines'] = [];
    for (let k = 0; k < n; k++) {
      lines.push({ lineNumber: k, start: b.starts[k]!, length: b.lengths[k]!, status: k === n - 1 && b.lastIncomplete ? 'incomplete' : 'ok' });
    }
    const view: EvidenceBlockView = { fileId: 0, file: '', data: Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength), lines };
    const hits: number[] = [];
    if (b.only) matchLines(view, matcher, b.only, (k) => hits.push(k));
    else matchBlock(view, matcher, (k) => hits.push(k));
    return hits;
  };
}
