// better-sqlite3 as the SQLite store opens it, loaded the cheap way: every report opens the store,
// so what loading the driver costs is paid by every `hindsight usage` (docs/benchmarks.md, "Warm
// reports": measured in a fresh process, ~10 ms of CPU of the ~35 ms it took).
//
// - Required, not imported: the package is CommonJS, and an ESM import of it makes Node parse its
//   source for named exports and build a module facade before running it.
// - Its compiled addon named by path: left to itself, the package loads `bindings`, which walks a
//   stack trace to find the package's folder and then tries up to a dozen places. The path is given
//   only when it is the file `bindings` would pick (the first of its places that exists), so the
//   same addon loads either way; in any other layout the package finds it as before.
// - Its JavaScript as one file when the build wrote it (dist/bundle/vendor/better-sqlite3.cjs, by
//   scripts/bundle-sqlite-driver.mjs): the package's 13 files, each a round of Node's module
//   machinery, cost ~8 ms of CPU in a fresh process, the one file ~3 ms. Used only with the addon
//   by path (the package's `bindings` would look for it from the wrong folder) and only when it was
//   made from the installed version; else the package, as before.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { packageRoot } from '../../core/package-info.js';

const require = createRequire(import.meta.url);

/** The addon file, as `bindings` looks for it: these places first, in this order. */
const FIRST_PLACES = ['build/better_sqlite3.node', 'build/Debug/better_sqlite3.node', 'build/Release/better_sqlite3.node'];

let addon: string | null | undefined;

/** The path of the addon `bindings` would load, when it is one of its first places; else null (let the package look). */
export function addonPath(): string | null {
  if (addon === undefined) {
    try {
      const root = dirname(require.resolve('better-sqlite3/package.json'));
      addon = FIRST_PLACES.map((place) => join(root, place)).find((path) => existsSync(path)) ?? null;
    } catch {
      addon = null;
    }
  }
  return addon;
}

/** Where the build writes better-sqlite3's JavaScript as one file. */
export function oneFileDriverPath(): string {
  return join(packageRoot(), 'dist', 'bundle', 'vendor', 'better-sqlite3.cjs');
}

/**
 * better-sqlite3's Database class: from the one file at `oneFile` when it exists and holds the
 * installed version, else from the package. Only for use with the addon by path (addonPath()).
 */
export function loadDriver(oneFile = oneFileDriverPath()): typeof BetterSqlite3 {
  if (existsSync(oneFile)) {
    const bundled = require(oneFile) as { version?: unknown; Database?: typeof BetterSqlite3 };
    const installed = (require('better-sqlite3/package.json') as { version: string }).version;
    if (bundled.version === installed && typeof bundled.Database === 'function') return bundled.Database;
  }
  return require('better-sqlite3') as typeof BetterSqlite3;
}

/** Open the SQLite file at `location` (or ':memory:') with better-sqlite3. */
export function openDatabase(location: string, options: { readonly?: boolean } = {}): BetterSqlite3.Database {
  const nativeBinding = addonPath();
  const Database = nativeBinding === null ? (require('better-sqlite3') as typeof BetterSqlite3) : loadDriver();
  return new Database(location, nativeBinding === null ? options : { ...options, nativeBinding });
}
