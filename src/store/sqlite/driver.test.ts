// The SQLite driver as the store loads it: the addon named by path is the one better-sqlite3's own
// lookup (the `bindings` package) would load, and a database opened with it works; the package's
// JavaScript as one file (scripts/bundle-sqlite-driver.mjs) is used only when it is the installed
// version's, and works as the package does.

import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript (it runs right after tsc, from the build)
import { sqliteDriverSource } from '../../../scripts/bundle-sqlite-driver.mjs';
import { tempDir } from '../../../test/helpers.js';
import { addonPath, loadDriver, openDatabase } from './driver.js';

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

  it('takes better-sqlite3 as one file, written by the build, when it holds the installed version', () => {
    const oneFile = join(tempDir('hs-driver-'), 'better-sqlite3.cjs');
    writeFileSync(oneFile, (sqliteDriverSource as () => string)());
    const Bundled = loadDriver(oneFile);
    expect(Bundled).not.toBe(Database);
    const db = new Bundled(':memory:', { nativeBinding: addonPath()! });
    try {
      db.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2)');
      expect(db.prepare('SELECT sum(x) AS s FROM t').get()).toEqual({ s: 3 });
      expect(db.prepare('SELECT x FROM t ORDER BY x').raw(true).all()).toEqual([[1], [2]]);
      expect(db.pragma('user_version', { simple: true })).toBe(0);
      expect(db.transaction(() => db.prepare('INSERT INTO t VALUES (3)').run().changes)()).toBe(1);
      // Errors are a SqliteError with SQLite's code. (Of whichever copy's class first met the addon:
      // the addon holds one error class per process, and nothing here tests errors by class.)
      let caught: unknown;
      try {
        db.prepare('SELECT nope FROM nothing');
      } catch (err) {
        caught = err;
      }
      expect((caught as Error).name).toBe('SqliteError');
      expect((caught as { code?: string }).code).toBe('SQLITE_ERROR');
    } finally {
      db.close();
    }
  });

  it('takes the package when the one file is missing, of another version, or not a driver', () => {
    const dir = tempDir('hs-driver-');
    expect(loadDriver(join(dir, 'missing.cjs'))).toBe(Database);
    const other = join(dir, 'other-version.cjs');
    writeFileSync(other, 'module.exports = { version: "0.0.1", Database: function Database() {} };');
    expect(loadDriver(other)).toBe(Database);
    const notADriver = join(dir, 'not-a-driver.cjs');
    const installed = (require('better-sqlite3/package.json') as { version: string }).version;
    writeFileSync(notADriver, `module.exports = { version: ${JSON.stringify(installed)} };`);
    expect(loadDriver(notADriver)).toBe(Database);
  });
});
