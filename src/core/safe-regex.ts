// User regular expressions that cannot hang the process (design.md, rule 8). Searches run on RE2
// (re2js, linear in the input) whenever the pattern can be said in RE2 syntax (planUserSearch).
// The rest run on V8: it can fall back to its linear-time engine when a match backtracks too
// much; that only helps for patterns the linear engine accepts, so those are the only ones we take
// (ripgrep's default engine draws the same line: no backreferences, no lookaround). V8's fallback
// engine is slow (a 64-character class run over hashes: ~10 s per 2.6 MB), which is why RE2 comes
// first and why searches run in a worker under a deadline (tools/grep-jsonl/search-pool.ts).

import v8 from 'node:v8';
import { defineError } from './errors.js';
import { toRe2Syntax } from './re2-syntax.js';

export const MAX_PATTERN_LENGTH = 1000;

export const InvalidPattern = defineError('INVALID_PATTERN', (detail: string) => `Invalid pattern: ${detail}`);

// Both flags must be set before the first user pattern is compiled. The first makes a runaway
// match switch engines; the second lets us ask the linear engine up front (the `l` flag).
v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
v8.setFlagsFromString('--enable-experimental-regexp-engine');

const LINEAR_AVAILABLE = (() => {
  try {
    new RegExp('a', 'l');
    return true;
  } catch {
    return false;
  }
})();

export interface UserPatternOptions {
  ignoreCase?: boolean;
  /** false: check only the syntax and length (the pattern will run on RE2, not on V8). */
  screen?: boolean;
}

/**
 * Compile a user's pattern for scanning decompressed text: flags `gm` (set lastIndex, call exec).
 * JavaScript syntax without the `u` flag. `ignoreCase` is applied by rewriting letters into
 * case classes, because V8's linear engine (the safety net) does not support the `i` flag: with
 * `i`, `(a+)+$` would hang. Throws INVALID_PATTERN (empty, too long, bad syntax, or a construct
 * that cannot run in linear time).
 *
 * @example
 * const re = compileUserPattern('budget_exhausted', { ignoreCase: true });
 * re.lastIndex = 0; re.exec(text);
 */
export function compileUserPattern(pattern: string, options: UserPatternOptions = {}): RegExp {
  if (pattern.length === 0) throw InvalidPattern('the pattern is empty; pass a regular expression such as "budget_exhausted".');
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw InvalidPattern(`the pattern is ${pattern.length} characters long; the limit is ${MAX_PATTERN_LENGTH}.`);
  }
  try {
    new RegExp(pattern);
  } catch (err) {
    throw InvalidPattern(`${(err as Error).message}. Check the brackets and escapes (JavaScript regex syntax).`);
  }
  if (options.screen === false) return new RegExp(pattern, 'gm');
  if (!LINEAR_AVAILABLE) {
    throw InvalidPattern('this Node.js build has no linear-time regex engine, so user patterns cannot be run safely.');
  }
  // Checked before folding: folding would turn `\k<name>` into plain text.
  const unrolled = unrollCounts(pattern);
  if (!isLinear(unrolled)) {
    throw InvalidPattern(
      `"${pattern}" cannot be matched in linear time: it uses a backreference, lookahead/lookbehind, or a repeated group holding more than 16 repetitions (such as (ab{20})+). These are refused because they can take exponential time to match (ripgrep's default engine refuses backreferences and lookaround too). Rewrite the pattern without them.`,
    );
  }
  const source = options.ignoreCase ? foldCase(unrolled) : unrolled;
  if (source !== unrolled && !isLinear(source)) {
    throw InvalidPattern(`"${pattern}" cannot be matched ignoring case in linear time; pass the case variants yourself (e.g. [Ee]rror).`);
  }
  return new RegExp(source, 'gm');
}

/** Which engine runs a user's search, and the pattern as that engine reads it (plain data: it crosses to the search worker). */
export type SearchPlan =
  | { engine: 're2'; source: string; pattern: string; ignoreCase: boolean }
  | { engine: 'js'; source: string; pattern: string; ignoreCase: boolean };

/**
 * Decide how a user's pattern is run. The rule: RE2 (re2js, linear time in the input for every
 * pattern) whenever the pattern can be said in RE2 syntax with its JavaScript meaning
 * (re2-syntax.ts); otherwise V8's engine, for the patterns compileUserPattern accepts (its screen
 * refuses backreferences and lookaround, which neither linear engine can run). Measured on a
 * 2.6 MB ledger: `[0-9a-f]{64}x` takes ~10 s through V8's linear fallback and ~0.1 s in re2js.
 * Throws INVALID_PATTERN as compileUserPattern does. re2js is loaded on first use (start-up).
 */
export async function planUserSearch(pattern: string, options: UserPatternOptions = {}): Promise<SearchPlan> {
  const ignoreCase = options.ignoreCase ?? false;
  compileUserPattern(pattern, { ignoreCase: false, screen: false });
  const re2 = toRe2Syntax(ignoreCase ? foldCase(pattern) : pattern);
  if (re2 !== null && (await re2Accepts(re2))) return { engine: 're2', source: re2, pattern, ignoreCase };
  return { engine: 'js', source: compileUserPattern(pattern, { ignoreCase }).source, pattern, ignoreCase };
}

async function re2Accepts(source: string): Promise<boolean> {
  const { RE2JS } = await import('re2js');
  try {
    RE2JS.compile(source);
    return true;
  } catch {
    return false; // beyond RE2's limits (a count above 1000, a program too large): the JS engine decides
  }
}

function isLinear(source: string): boolean {
  try {
    new RegExp(source, 'l');
    return true;
  } catch {
    return false;
  }
}

/** The same pattern for testing one line on its own: `^` and `$` mean the line's ends. */
export function lineRegExp(scanner: RegExp): RegExp {
  return new RegExp(scanner.source);
}

// ---- counted repetitions above 16: V8's linear engine replicates at most 16 copies of an atom,
// so `[0-9a-f]{64}` becomes `(?:[0-9a-f]{16}[0-9a-f]{16}[0-9a-f]{16}[0-9a-f]{16})` (same lines match).

const REPLICAS = 16;
const MAX_COUNT = 1000;
const MAX_UNROLLED = 20_000;
const COUNTED_Q = /^\{(\d+)(?:(,)(\d*))?\}/;

function skipClass(p: string, i: number): number {
  let j = i + 1;
  while (j < p.length && p[j] !== ']') j += p[j] === '\\' ? 2 : 1;
  return j + 1;
}

function groupEnd(p: string, i: number): number {
  let depth = 0;
  for (let j = i; j < p.length; ) {
    const c = p[j]!;
    if (c === '\\') j += 2;
    else if (c === '[') j = skipClass(p, j);
    else {
      if (c === '(') depth++;
      if (c === ')' && --depth === 0) return j;
      j++;
    }
  }
  return p.length;
}

function escapeLength(p: string, i: number): number {
  const next = p[i + 1] ?? '';
  if (next === 'x' && HEX2.test(p.slice(i + 2, i + 4))) return 4;
  if (next === 'u' && HEX4.test(p.slice(i + 2, i + 6))) return 6;
  if (next === 'c' && /[A-Za-z]/.test(p[i + 2] ?? '')) return 3;
  return 2;
}

function expand(atom: string, n: number, m: number, lazy: boolean): string {
  const q = lazy ? '?' : '';
  const parts: string[] = [];
  for (let left = n; left > 0; left -= REPLICAS) parts.push(`${atom}{${Math.min(REPLICAS, left)}}`);
  if (m === Infinity) parts.push(`${atom}*${q}`);
  else for (let left = m - n; left > 0; left -= REPLICAS) parts.push(`${atom}{0,${Math.min(REPLICAS, left)}}${q}`);
  return `(?:${parts.join('')})`;
}

/** Spell out `{n,m}` above 16 on a single character, escape or class; groups are left alone (and refused if too big). */
export function unrollCounts(p: string): string {
  const out = unrollSeq(p);
  return out.length > MAX_UNROLLED ? p : out;
}

function unrollSeq(p: string): string {
  const out: string[] = [];
  let atom: { index: number; simple: boolean } | null = null;
  for (let i = 0; i < p.length; ) {
    const c = p[i]!;
    const q = c === '{' && atom ? COUNTED_Q.exec(p.slice(i)) : null;
    if (q && atom) {
      const n = Number(q[1]);
      const m = q[2] ? (q[3] ? Number(q[3]) : Infinity) : n;
      const lazy = p[i + q[0].length] === '?';
      const big = n > REPLICAS || (m !== Infinity && m > REPLICAS) || (m === Infinity && n >= REPLICAS);
      if (atom.simple && big && n <= MAX_COUNT && (m === Infinity || m <= MAX_COUNT) && n <= m) {
        out[atom.index] = expand(out[atom.index]!, n, m, lazy);
        i += q[0].length + (lazy ? 1 : 0);
      } else {
        out.push(q[0]);
        i += q[0].length;
      }
      atom = null;
      continue;
    }
    let end = i + 1;
    let simple = true;
    if (c === '\\') {
      end = i + escapeLength(p, i);
      simple = !/[0-9k]/.test(p[i + 1] ?? ''); // backreferences (and legacy octals) stay as written
      out.push(p.slice(i, end));
    } else if (c === '[') {
      end = skipClass(p, i);
      out.push(p.slice(i, end));
    } else if (c === '(') {
      const close = groupEnd(p, i);
      const prefix = /^\((?:\?(?::|=|!|<=|<!|<[^>]*>))?/.exec(p.slice(i))![0];
      out.push(`${prefix}${unrollSeq(p.slice(i + prefix.length, close))})`);
      end = close + 1;
      simple = false;
    } else {
      out.push(c);
      simple = !'*+?|^$'.includes(c);
    }
    atom = simple || c === '(' || c === '\\' ? { index: out.length - 1, simple } : null;
    i = end;
  }
  return out.join('');
}

// ---- ignore_case by rewriting: `a` → `[aA]`, `[a-c]` → `[a-cA-C]` ----

const hex4 = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`;
const CLASS_ESCAPES = 'dDwWsS';
const KEPT_ESCAPES = 'dDwWsSbBnrtvf';
const CONTROL: Record<string, number> = { n: 10, r: 13, t: 9, v: 11, f: 12, b: 8 };
const HEX2 = /^[0-9a-fA-F]{2}$/;
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** The other cases of a UTF-16 unit (one-unit results only, as JavaScript's own `i` does). */
function otherCases(code: number): number[] {
  const c = String.fromCharCode(code);
  const out: number[] = [];
  for (const v of [c.toLowerCase(), c.toUpperCase()]) {
    if (v.length === 1 && v !== c && !out.includes(v.charCodeAt(0))) out.push(v.charCodeAt(0));
  }
  return out;
}

/** A literal unit: itself when it has no other case, else a class of its cases. */
function literal(code: number, original: string): string {
  const others = otherCases(code);
  return others.length === 0 ? original : `[${[code, ...others].map(hex4).join('')}]`;
}

export function foldCase(p: string): string {
  let out = '';
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === '\\') {
      const [text, len] = foldEscape(p, i);
      out += text;
      i += len;
    } else if (c === '[') {
      const [text, len] = foldClass(p, i);
      out += text;
      i += len;
    } else if (c === '(' && p[i + 1] === '?' && p[i + 2] === '<' && p[i + 3] !== '=' && p[i + 3] !== '!') {
      const end = p.indexOf('>', i); // a group name is not text to match
      out += p.slice(i, end + 1);
      i = end + 1;
    } else {
      out += literal(c.charCodeAt(0), c);
      i += 1;
    }
  }
  return out;
}

function foldEscape(p: string, i: number): [string, number] {
  const next = p[i + 1];
  if (next === undefined) return ['\\', 1];
  if (KEPT_ESCAPES.includes(next) || (next >= '0' && next <= '9')) return [p.slice(i, i + 2), 2];
  if (next === 'c') return /[A-Za-z]/.test(p[i + 2] ?? '') ? [p.slice(i, i + 3), 3] : [p.slice(i, i + 2), 2];
  if (next === 'x' && HEX2.test(p.slice(i + 2, i + 4))) return [literal(parseInt(p.slice(i + 2, i + 4), 16), p.slice(i, i + 4)), 4];
  if (next === 'u' && HEX4.test(p.slice(i + 2, i + 6))) return [literal(parseInt(p.slice(i + 2, i + 6), 16), p.slice(i, i + 6)), 6];
  return [literal(next.charCodeAt(0), p.slice(i, i + 2)), 2]; // identity escape (`\.`, or `\q` meaning q)
}

interface ClassAtom {
  code: number | null; // null: a class escape such as \d
  text: string;
  len: number;
}

function classAtom(p: string, j: number): ClassAtom {
  const c = p[j]!;
  if (c !== '\\') return { code: c.charCodeAt(0), text: c, len: 1 };
  const next = p[j + 1] ?? '\\';
  if (CLASS_ESCAPES.includes(next)) return { code: null, text: `\\${next}`, len: 2 };
  if (next in CONTROL) return { code: CONTROL[next]!, text: '', len: 2 };
  if (next === 'c') {
    const x = p[j + 2] ?? '';
    return /[A-Za-z0-9_]/.test(x) ? { code: x.charCodeAt(0) % 32, text: '', len: 3 } : { code: 92, text: '', len: 1 };
  }
  if (next === 'x' && HEX2.test(p.slice(j + 2, j + 4))) return { code: parseInt(p.slice(j + 2, j + 4), 16), text: '', len: 4 };
  if (next === 'u' && HEX4.test(p.slice(j + 2, j + 6))) return { code: parseInt(p.slice(j + 2, j + 6), 16), text: '', len: 6 };
  const octal = /^[0-3][0-7]{0,2}|^[4-7][0-7]?/.exec(p.slice(j + 1, j + 4));
  if (octal) return { code: parseInt(octal[0], 8), text: '', len: 1 + octal[0].length };
  return { code: next.charCodeAt(0), text: '', len: 2 };
}

/** Rebuild a class from its parsed atoms (every unit as \uXXXX, so nothing can turn into a range by accident) plus the other cases. */
function foldClass(p: string, i: number): [string, number] {
  let j = i + 1;
  const negated = p[j] === '^';
  if (negated) j++;
  const parts: string[] = [];
  const extra = new Set<number>();
  while (j < p.length && p[j] !== ']') {
    const a = classAtom(p, j);
    j += a.len;
    if (p[j] === '-' && p[j + 1] !== ']' && j + 1 < p.length) {
      const b = classAtom(p, j + 1);
      if (a.code !== null && b.code !== null) {
        j += 1 + b.len;
        parts.push(`${hex4(a.code)}-${hex4(b.code)}`);
        for (let code = a.code; code <= b.code; code++) {
          for (const o of otherCases(code)) if (o < a.code || o > b.code) extra.add(o);
        }
        continue;
      }
    }
    if (a.code === null) parts.push(a.text);
    else {
      parts.push(hex4(a.code));
      for (const o of otherCases(a.code)) extra.add(o);
    }
  }
  return [`[${negated ? '^' : ''}${parts.join('')}${runs([...extra])}]`, j + 1 - i];
}

/** Units as compact \uXXXX runs. */
function runs(codes: number[]): string {
  codes.sort((a, b) => a - b);
  let out = '';
  for (let k = 0; k < codes.length; ) {
    let e = k;
    while (e + 1 < codes.length && codes[e + 1] === codes[e]! + 1) e++;
    out += e > k ? `${hex4(codes[k]!)}-${hex4(codes[e]!)}` : hex4(codes[k]!);
    k = e + 1;
  }
  return out;
}
