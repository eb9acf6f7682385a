// The SQLite driver as the store loads it: the addon named by path is the one better-sqlite3's own
// lookup (the `bindings` package) would load, and a database opened with it works.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { addonPath, openDatabase } from './driver.js';

const require = createRequire(import.meta.url);

describe('SQLite driver', () => {
  it('names the addon file bindings would pick: the first of build/, build/Debug/, build/Release/ that exists', () => {
    const root = dirname(require.resolve('better-sqlite3/package.json'));
    const found = addonPath();
    expect(found).not.toBeNull();
    expect(existsSync(found!)).toBe(true);
    // The same file bindings resolves (its module_root is the package folder).
    const bindings = require('bindings') as (opts: { bindings: string; module_root: string; path: true }) => string;
    expect(found).toBe(bindings({ bindings: 'better_sqlite3.node', module_root: root, path: true }));
    expect(found!.startsWith(join(root, 'build'))).toBe(true);
  });

  it('opens a database that answers as one opened the package\'s own way', () => {
    const ours = openDatabase(':memory:');
    const theirs = new Database(':memory:');
    try {
      const version = 'SELECT sqlite_version() AS v';
      expect(ours.prepare(version).get()).toEqual(theirs.prepare(version).get());
      ours.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2)');
      expect(ours.prepare('SELECT sum(x) AS s FROM t').get()).toEqual({ s: 3 });
    } finally {
      ours.close();
      theirs.close();
    }
  });
});
