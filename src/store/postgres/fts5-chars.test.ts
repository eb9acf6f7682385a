// fts5-chars.ts must be what the SQLite in use actually does: regenerated here and compared, so an
// upgrade of better-sqlite3 that changes FTS5's Unicode tables fails loudly instead of drifting.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { probeFts5, type Fts5Chars } from './fts5-probe.js';

function render(t: Fts5Chars, version: string): string {
  const sep = t.separators.map(([a, b]) => (a === b ? a.toString(36) : `${a.toString(36)}-${b.toString(36)}`)).join(',');
  const folds = Object.entries(t.folds)
    .map(([cp, f]) => `${Number(cp).toString(36)}:${[...f].map((c) => c.codePointAt(0)!.toString(36)).join('.')}`)
    .join(',');
  const chunk = (s: string) => (s.match(/.{1,100}/g) ?? ['']).map((l) => `  '${l}',`).join('\n');
  return `// Generated from SQLite ${version}'s FTS5 by fts5-probe.ts (src/store/postgres/fts5-chars.test.ts checks it;
// HINDSIGHT_UPDATE_FTS5=1 rewrites it). Base-36 code points: separator ranges above ASCII, and
// the code points whose FTS5 fold differs from their JS lower case (empty: folded away).

export const FTS5_SQLITE_VERSION = '${version}';

export const SEPARATORS = [
${chunk(sep)}
].join('');

export const FOLDS = [
${chunk(folds)}
].join('');
`;
}

describe('FTS5 character table', () => {
  it('matches what the bundled SQLite FTS5 does with every code point', () => {
    const file = join(import.meta.dirname, 'fts5-chars.ts');
    const version = (new Database(':memory:').prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
    const fresh = render(probeFts5(), version);
    if (process.env.HINDSIGHT_UPDATE_FTS5) writeFileSync(file, fresh);
    expect(readFileSync(file, 'utf8'), 'fts5-chars.ts is stale: run this test with HINDSIGHT_UPDATE_FTS5=1').toBe(fresh);
  });
});
