// Tokens and ranking as SQLite's FTS5 makes them: checked against a real FTS5 table.

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { bm25, ftsTokens, round6, termPhrases, tsQuery, tsvectorLiteral } from './fts-tokens.js';

const DOCS = [
  'The server started; the SERVER stopped.',
  'naïve café_au-lait, e\u0301te\u0301',
  'serve served server serving a b a b a',
  'nothing here',
  '',
  'a b',
  'Ελληνικά δεδομένα, 한국어 문장입니다 ✔️ 👍🏽 किताब Ǆx 日本語 ﬁne ½ x² Øre ÆSIR İstanbul',
];

function fts5(docs: string[]): Database.Database {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE f USING fts5(text, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')");
  db.exec("CREATE VIRTUAL TABLE v USING fts5vocab(f, 'instance')");
  const insert = db.prepare('INSERT INTO f (rowid, text) VALUES (?, ?)');
  docs.forEach((d, i) => insert.run(i + 1, d));
  return db;
}

describe('FTS5-compatible tokens and bm25', () => {
  it('tokenises as unicode61 with remove_diacritics 2', () => {
    const db = fts5(DOCS);
    const vocab = db.prepare('SELECT doc, term, offset FROM v ORDER BY doc, offset').all() as { doc: number; term: string; offset: number }[];
    const ours = DOCS.flatMap((d, i) => ftsTokens(d).map((term, offset) => ({ doc: i + 1, term, offset })));
    expect(ours).toEqual(vocab);
  });

  it('writes tsvector and tsquery literals with quoting, positions and prefixes', () => {
    expect(tsvectorLiteral(['a', "o'k", 'a'])).toBe("'a':1,3 'o''k':2");
    expect(tsQuery(termPhrases([{ kind: 'word', text: 'fix-it' }, { kind: 'prefix', text: 'serv' }]))).toBe("('fix' <-> 'it') & 'serv':*");
    expect(tsQuery(termPhrases([{ kind: 'word', text: '!!' }]))).toBeNull();
  });

  it('ranks with the same numbers as FTS5 bm25, also after a contentless delete', () => {
    const db = fts5(DOCS);
    db.prepare('DELETE FROM f WHERE rowid = 4').run();
    const query = [
      { kind: 'phrase' as const, text: 'a b' },
      { kind: 'prefix' as const, text: 'serv' },
    ];
    const expected = db
      .prepare(`SELECT rowid, round(bm25(f), 6) AS r FROM f WHERE f MATCH '"a b" AND "serv"*' ORDER BY rowid`)
      .all() as { rowid: number; r: number }[];
    expect(expected.length).toBe(1);
    const docs = DOCS.map(ftsTokens);
    const phrases = termPhrases(query);
    const count = (tokens: string[], p: (typeof phrases)[number]) =>
      tokens.filter((_, i) => p.tokens.every((t, j) => (p.prefix && j === p.tokens.length - 1 ? tokens[i + j]?.startsWith(t) : tokens[i + j] === t))).length;
    const live = docs.filter((_, i) => i !== 3);
    const stats = {
      rows: docs.length,
      tokens: docs.reduce((n, d) => n + d.length, 0),
      hits: phrases.map((p) => live.filter((d) => count(d, p) > 0).length),
    };
    const doc = docs[2]!;
    expect(round6(bm25(stats, phrases.map((p) => count(doc, p)), doc.length))).toBe(expected[0]!.r);
  });
});
