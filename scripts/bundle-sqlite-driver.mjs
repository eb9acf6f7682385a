// Writes better-sqlite3's JavaScript (its lib/ folder: 13 CommonJS files) as one CommonJS file,
// dist/bundle/vendor/better-sqlite3.cjs, which src/store/sqlite/driver.ts requires instead of the
// package when it is the installed version's. Why: every report opens the store, and requiring the
// package costs Node's module machinery once per file (resolving, a package.json scope lookup, a
// real path, reading, wrapping): ~8 ms of CPU in a fresh process, ~3 ms as one file (docs/benchmarks.md,
// "Warm reports"). rollup cannot bundle it (no CommonJS plugin here), and it needs none: the files
// keep their own code, each wrapped in a function as Node would wrap it, and require each other
// through a table of them; any other require (node's modules, the addon by path) is the file's own.
//
// Plain JavaScript: bundle-cli.mjs runs it right after rollup.

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix, relative, sep } from 'node:path';

const require = createRequire(import.meta.url);

/** The files of `dir` ending in .js, as paths relative to it with '/' separators. */
function jsFiles(dir, under = '') {
  return readdirSync(join(dir, under), { withFileTypes: true }).flatMap((e) => {
    const rel = under ? `${under}/${e.name}` : e.name;
    if (e.isDirectory()) return jsFiles(dir, rel);
    return e.isFile() && e.name.endsWith('.js') ? [rel] : [];
  });
}

/** What a relative require in `from` names among `files`, as Node would resolve it (x, x.js, x/index.js); null when none. */
function resolveRelative(files, from, id) {
  const base = posix.join(posix.dirname(from), id);
  return [base, `${base}.js`, `${base}/index.js`].find((f) => files.includes(f)) ?? null;
}

/**
 * The one-file driver for the better-sqlite3 installed beside the repository (or `packageDir`).
 * Fails when a file requires a relative path that is not one of the package's lib files.
 */
export function sqliteDriverSource(packageDir = dirname(require.resolve('better-sqlite3/package.json'))) {
  const { version, main } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const lib = join(packageDir, 'lib');
  const files = jsFiles(lib);
  const entry = posix.normalize(relative(lib, join(packageDir, main ?? 'lib/index.js')).split(sep).join('/'));
  if (!files.includes(entry)) throw new Error(`bundle-sqlite-driver: better-sqlite3 ${version}'s main (${main}) is not in its lib folder`);
  const table = files.map((file) => {
    const code = readFileSync(join(lib, file), 'utf8');
    for (const [, id] of code.matchAll(/\brequire\(\s*['"](\.{1,2}\/[^'"]*|\.{1,2})['"]\s*\)/g)) {
      if (!resolveRelative(files, file, id)) throw new Error(`bundle-sqlite-driver: better-sqlite3 ${version}'s lib/${file} requires ${id}, which is not one of its lib files`);
    }
    return `${JSON.stringify(file)}: function (exports, require, module, __filename, __dirname) {\n${code}\n}`;
  });
  return `'use strict';
// better-sqlite3 ${version}'s lib/ as one file, written by scripts/bundle-sqlite-driver.mjs (it says
// why). Not edited: each file's code as the package ships it.
const path = require('path');
const files = {
${table.join(',\n')}
};
const loaded = new Map();
function load(file) {
  const done = loaded.get(file);
  if (done) return done.exports;
  const module = { exports: {} };
  loaded.set(file, module);
  const own = (id) => {
    if (!id.startsWith('.')) return require(id);
    const base = path.posix.join(path.posix.dirname(file), id);
    const found = [base, base + '.js', base + '/index.js'].find((f) => Object.prototype.hasOwnProperty.call(files, f));
    if (!found) throw new Error('better-sqlite3 (one file): ' + file + ' requires ' + id + ', which it does not hold');
    return load(found);
  };
  // The package's files use neither; they get this file's names, not a path of the build machine.
  files[file].call(module.exports, module.exports, own, module, __filename, __dirname);
  return module.exports;
}
module.exports = { version: ${JSON.stringify(version)}, Database: load(${JSON.stringify(entry)}) };
`;
}

/** Write the one-file driver into `bundleDir`/vendor/better-sqlite3.cjs. */
export function bundleSqliteDriver(bundleDir) {
  mkdirSync(join(bundleDir, 'vendor'), { recursive: true });
  writeFileSync(join(bundleDir, 'vendor', 'better-sqlite3.cjs'), sqliteDriverSource());
}
