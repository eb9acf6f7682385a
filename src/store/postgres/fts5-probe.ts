// What SQLite's FTS5 tokenizer (unicode61, remove_diacritics 2) does with each code point above
// ASCII, asked of FTS5 itself: which ones separate tokens, and which fold to something other than
// their lower case. fts5-chars.ts holds the answer; its test regenerates it and compares.

import Database from 'better-sqlite3';

export interface Fts5Chars {
  /** Inclusive [start, end] ranges of code points ≥ 128 that separate tokens. */
  separators: [number, number][];
  /** Code points ≥ 128 whose folded form differs from their JS lower case ('' when folded away). */
  folds: Record<number, string>;
}

/** Tokenise every code point between two ASCII letters and read back what FTS5 indexed. */
export function probeFts5(): Fts5Chars {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE f USING fts5(text, tokenize='unicode61 remove_diacritics 2')");
  db.exec("CREATE VIRTUAL TABLE v USING fts5vocab(f, 'instance')");
  const insert = db.prepare('INSERT INTO f (rowid, text) VALUES (?, ?)');
  const codePoints: number[] = [];
  for (let cp = 128; cp <= 0x10ffff; cp++) if (cp < 0xd800 || cp > 0xdfff) codePoints.push(cp);
  db.transaction(() => {
    for (const cp of codePoints) insert.run(cp, `x${String.fromCodePoint(cp)}x`);
  })();
  const terms = new Map<number, string[]>();
  for (const [doc, term] of db.prepare('SELECT doc, term FROM v ORDER BY doc, offset').raw(true).iterate() as Iterable<[number, string]>) {
    const list = terms.get(doc) ?? [];
    list.push(term);
    terms.set(doc, list);
  }
  db.close();
  const separators: [number, number][] = [];
  const folds: Record<number, string> = {};
  for (const cp of codePoints) {
    const t = terms.get(cp) ?? [];
    if (t.length !== 1) {
      const last = separators[separators.length - 1];
      if (last && last[1] === cp - 1) last[1] = cp;
      else separators.push([cp, cp]);
      continue;
    }
    const folded = t[0]!.slice(1, -1);
    if (folded !== String.fromCodePoint(cp).toLowerCase()) folds[cp] = folded;
  }
  return { separators, folds };
}
