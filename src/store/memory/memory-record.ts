// What a saved memory is and how text is read for searching it, shared by the SQLite memory and
// the runtime's in-memory one (src/runtime/memory/), so both agree on what a query means. Pure: no
// engine is loaded here.

export interface MemoryHit {
  id: number;
  /** The session that saved it (an ancestor's id for an inherited memory). */
  sessionId: string;
  content: string;
  tags: string[];
  /** ISO-8601 UTC, when it was saved. */
  createdAt: string;
  /** Higher is better; only comparable within one search. */
  score: number;
}

export interface MemorySearchOptions {
  /** Search only this session's memories and those it inherited (default: every session's). */
  sessionId?: string;
}

/** Tags as stored: trimmed, lower-cased, without empties or repeats, in the order given. */
export function normaliseTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const tag of tags) {
    const t = tag.trim().toLowerCase();
    if (t && !out.includes(t)) out.push(t);
  }
  return out;
}

/**
 * The words of a query as the FTS5 unicode61 tokenizer sees them (runs of letters and digits, case
 * and diacritics folded). Everything else — quotes, brackets, AND/OR/NEAR as operators — is not
 * syntax here, only a separator or a plain word.
 *
 * @example queryWords('a AND ("Café"') // ['a', 'and', 'cafe']
 */
export function queryWords(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  return [...new Set(folded.match(/[\p{L}\p{N}]+/gu) ?? [])];
}
