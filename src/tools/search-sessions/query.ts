// A user's search text → terms. Words, "quoted phrases" and prefix* are understood; everything
// else is text: FTS operators (AND, OR, NOT, NEAR, -, :, parentheses, ^) are not interpreted, and
// a stray quote opens a phrase that runs to the end. The engine quotes every term itself.

import type { SearchTerm } from '../../store/store.js';

const TOKEN_CHAR = /[\p{L}\p{N}]/u;
const OUTER_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

/** A term, or nothing when it holds no letter or digit (e.g. `(` or `-`): such text can match nothing. */
function term(kind: SearchTerm['kind'], raw: string): SearchTerm[] {
  const text = raw.replace(OUTER_PUNCTUATION, '');
  return TOKEN_CHAR.test(text) ? [{ kind, text }] : [];
}

/**
 * The terms of a query, in order (all must match).
 *
 * @example parseQuery('deploy* "fix the bug" NEAR(') // [{prefix deploy}, {phrase fix the bug}, {word NEAR}]
 */
export function parseQuery(query: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  let i = 0;
  const n = query.length;
  while (i < n) {
    const c = query[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"') {
      const close = query.indexOf('"', i + 1);
      const end = close === -1 ? n : close;
      const text = query.slice(i + 1, end);
      i = close === -1 ? n : close + 1;
      const starred = query[i] === '*';
      while (query[i] === '*') i++;
      terms.push(...term(starred ? 'prefix' : 'phrase', text));
      continue;
    }
    let j = i;
    while (j < n && !/\s/.test(query[j]!) && query[j] !== '"') j++;
    const word = query.slice(i, j);
    i = j;
    terms.push(...term(/[\p{L}\p{N}]\*+$/u.test(word) ? 'prefix' : 'word', word));
  }
  return terms;
}

/**
 * The alternatives of a query: `OR` (upper case, as its own word) separates groups of terms; a
 * match satisfies every term of at least one group. `a b OR c` is (a AND b) OR c.
 *
 * @example parseAlternatives('deploy OR "roll back"') // [[{word deploy}], [{phrase roll back}]]
 */
export function parseAlternatives(query: string): SearchTerm[][] {
  const groups: SearchTerm[][] = [];
  // Split on OR outside quotes only: a phrase may hold the word.
  let current = '';
  let quoted = false;
  const parts: string[] = [];
  for (const token of query.split(/(\s+|")/)) {
    if (token === '"') quoted = !quoted;
    if (!quoted && token === 'OR') {
      parts.push(current);
      current = '';
    } else current += token;
  }
  parts.push(current);
  for (const part of parts) {
    const terms = parseQuery(part);
    if (terms.length) groups.push(terms);
  }
  return groups;
}

/** The query as understood, for people: `migration AND "flaky test" AND refact*`, groups joined by OR. */
export function describeAlternatives(groups: SearchTerm[][]): string {
  const termText = (t: SearchTerm) => (t.kind === 'phrase' ? `"${t.text}"` : t.kind === 'prefix' ? `${t.text}*` : t.text);
  const group = (g: SearchTerm[]) => g.map(termText).join(' AND ');
  return groups.length > 1 ? groups.map((g) => (g.length > 1 ? `(${group(g)})` : group(g))).join(' OR ') : groups.map(group).join('');
}
