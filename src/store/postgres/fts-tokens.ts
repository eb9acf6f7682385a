// Message text as SQLite's FTS5 (unicode61, remove_diacritics 2) tokenises it, turned into a
// tsvector and tsquery literal here rather than by PostgreSQL's parser, so that both engines index
// the same tokens at the same positions; and FTS5's bm25, so that both rank matches alike.

import type { SearchTerm } from '../store.js';
import { FOLDS, SEPARATORS } from './fts5-chars.js';

/** PostgreSQL's limits: positions above this are clamped, a lexeme keeps at most 256 positions and 2046 bytes. */
const MAX_POSITION = 16383;
const MAX_POSITIONS = 256;
const MAX_LEXEME_BYTES = 2046;

/** Code points above ASCII that separate tokens, as sorted [start, end] pairs (fts5-chars.ts). */
const SEPARATOR_RANGES: number[] = SEPARATORS.split(',').flatMap((r) => {
  const [a, b] = r.split('-');
  const start = parseInt(a!, 36);
  return [start, b === undefined ? start : parseInt(b, 36)];
});
const FOLD = new Map<number, string>(
  FOLDS.split(',').map((e) => {
    const [cp, to] = e.split(':');
    return [parseInt(cp!, 36), to ? to.split('.').map((c) => String.fromCodePoint(parseInt(c, 36))).join('') : ''];
  }),
);

function isSeparator(cp: number): boolean {
  let lo = 0;
  let hi = SEPARATOR_RANGES.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < SEPARATOR_RANGES[mid * 2]!) hi = mid - 1;
    else if (cp > SEPARATOR_RANGES[mid * 2 + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

// eslint-disable-next-line no-control-regex
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/**
 * Tokens exactly as FTS5 unicode61 with remove_diacritics 2 makes them: ASCII letters and digits,
 * and above ASCII every code point FTS5 does not treat as a separator, each folded as FTS5 folds
 * it (case folding, Latin diacritics removed), per code point (fts5-chars.ts, read from FTS5).
 *
 * @example ftsTokens('Naïve café_au-lait') // ['naive', 'cafe', 'au', 'lait']
 */
export function ftsTokens(text: string): string[] {
  if (ASCII_ONLY.test(text)) return text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const out: string[] = [];
  let token = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const separates = cp < 128 ? !/[A-Za-z0-9]/.test(ch) : isSeparator(cp);
    if (separates) {
      if (token) out.push(token);
      token = '';
      continue;
    }
    token += cp < 128 ? ch.toLowerCase() : (FOLD.get(cp) ?? ch.toLowerCase());
  }
  if (token) out.push(token);
  return out;
}

function quote(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** The tsvector literal of the tokens, each at its 1-based position (what FTS5 counts instances by). */
export function tsvectorLiteral(tokens: string[]): string {
  const positions = new Map<string, number[]>();
  tokens.forEach((t, i) => {
    if (Buffer.byteLength(t) > MAX_LEXEME_BYTES) return;
    const list = positions.get(t) ?? [];
    if (list.length < MAX_POSITIONS) list.push(Math.min(i + 1, MAX_POSITION));
    positions.set(t, list);
  });
  return [...positions].map(([t, ps]) => `${quote(t)}:${ps.join(',')}`).join(' ');
}

/** Each term as FTS5 sees it: one phrase of tokens, the last one a prefix for `prefix*`. */
export interface Phrase {
  tokens: string[];
  prefix: boolean;
}

export function termPhrases(terms: SearchTerm[]): Phrase[] {
  return terms.map((t) => ({ tokens: ftsTokens(t.text), prefix: t.kind === 'prefix' }));
}

/** The tsquery literal of one phrase: a lexeme, or a `<->` chain; a prefix stars its last lexeme. */
export function phraseQuery(p: Phrase): string {
  const lexemes = p.tokens.map(quote);
  if (p.prefix) lexemes[lexemes.length - 1] += ':*';
  return lexemes.length === 1 ? lexemes[0]! : `(${lexemes.join(' <-> ')})`;
}

/** Every phrase must match (FTS5's AND). Null when a phrase holds no token (nothing can match it). */
export function tsQuery(phrases: Phrase[]): string | null {
  if (phrases.length === 0 || phrases.some((p) => p.tokens.length === 0)) return null;
  return phrases.map(phraseQuery).join(' & ');
}

export interface Bm25Stats {
  /** Rows ever indexed and their tokens: FTS5's totals, which a contentless delete does not decrease. */
  rows: number;
  tokens: number;
  /** Rows matching each phrase. */
  hits: number[];
}

/**
 * FTS5's bm25() (k1 = 1.2, b = 0.75; negative, lower is better), with its arithmetic in its order
 * so that both engines produce the same doubles.
 */
export function bm25(stats: Bm25Stats, freq: number[], docTokens: number): number {
  const k1 = 1.2;
  const b = 0.75;
  const avgdl = stats.tokens / stats.rows;
  let score = 0;
  freq.forEach((f, i) => {
    const nHit = stats.hits[i]!;
    let idf = Math.log((stats.rows - nHit + 0.5) / (nHit + 0.5));
    if (idf <= 0) idf = 1e-6;
    score += idf * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + (b * docTokens) / avgdl)));
  });
  return -1.0 * score;
}

/** SQLite's round(x, 6): half away from zero on the decimal expansion. */
export function round6(x: number): number {
  return Number(x.toFixed(6));
}
