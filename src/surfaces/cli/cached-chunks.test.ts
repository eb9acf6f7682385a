// The build's split of a chunk into a facade and a cacheable script (scripts/cached-chunks.mjs): the
// facade exports what the module exported, with the same values, lazy imports resolving from the
// chunk's folder, import.meta.url the chunk's and lines kept for stack traces; what a script cannot
// do as a module does is refused at build time.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript (it runs right after tsc, from the build)
import { cacheChunk, splitChunk } from '../../../scripts/cached-chunks.mjs';
import { REPO, tempDir } from '../../../test/helpers.js';

const LOADER = join(REPO, 'dist', 'src', 'surfaces', 'cli', 'chunk-cache.js');

/** A chunk as rollup writes them: imports first, one closing export list. */
const CHUNK = `import { join } from 'node:path';
import * as os from 'node:os';
import { helper } from './dep.js';

function twice(n) { return helper(n) * 2; }
const LIMIT = 500;
class Box { constructor(v) { this.v = v; } }
var names = /*#__PURE__*/Object.freeze({ __proto__: null, LIMIT });
let counted = 0;
let moving = 1;
function bump() { moving += 1; return moving; }
const here = () => new URL('./beside.json', import.meta.url).href;
const lazy = () => import('./dep.js');
function fails() {
  throw new Error('from line 15');
}
const joined = join('a', 'b') + (typeof os.platform);

export { twice as a, LIMIT as b, Box as c, names as d, counted as e, here as f, lazy as g, fails as h, joined as i, bump as j, twice as default };
`;
const DEP = `export const helper = (n) => n + 1;\n`;

function builtChunk(code = CHUNK): { dir: string; file: string } {
  const dir = tempDir('hs-cached-chunks-');
  const file = join(dir, 'chunks', 'report-x.js');
  mkdirSync(join(dir, 'chunks'));
  writeFileSync(join(dir, 'chunks', 'dep.js'), DEP);
  writeFileSync(file, code);
  return { dir, file };
}

describe('a chunk split into facade and script', () => {
  it('exports the module\'s values, resolves lazy imports and import.meta from the chunk\'s folder, keeps lines', async () => {
    const { dir, file } = builtChunk();
    const original = join(dir, 'chunks', 'original.js');
    writeFileSync(original, CHUNK);
    cacheChunk(dir, 'chunks/report-x.js', LOADER);
    expect(readFileSync(file, 'utf8')).toContain('loadCachedChunk(new URL("./report-x.script.js", import.meta.url)');
    const [ours, theirs] = await Promise.all([import(pathToFileURL(file).href), import(pathToFileURL(original).href)]);
    expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort());
    expect(ours.a(3)).toBe(theirs.a(3));
    expect(ours.default).toBe(ours.a);
    expect([ours.b, ours.d, ours.e, ours.i]).toEqual([theirs.b, theirs.d, theirs.e, theirs.i]);
    expect(new ours.c(7).v).toBe(7);
    expect(ours.f()).toBe(theirs.f());
    expect(ours.f()).toBe(pathToFileURL(join(dir, 'chunks', 'beside.json')).href);
    expect((await ours.g()).helper(1)).toBe(2);
    expect(ours.j()).toBe(2);
    const stack = (() => { try { ours.h(); } catch (err) { return (err as Error).stack!; } })()!;
    expect(stack).toContain(`report-x.script.js:15:`);
  });

  it('refuses what a script cannot do as a module does', () => {
    const split = (code: string) => () => splitChunk('chunks/x.js', code, 'x.script.js', './loader.js');
    expect(split(`let n = 0;\nfunction up() { n++; }\nexport { n, up };\n`)).toThrow(/exports n, a let assigned after its declaration/);
    expect(split(`const v = await Promise.resolve(1);\nexport { v };\n`)).toThrow(/top-level await/);
    expect(split(`export const v = 1;\n`)).toThrow(/only one closing "export \{ … \}"/);
    expect(split(`function f() { return 1; }\nexport { missing };\n`)).toThrow(/exports missing, which is not declared at its top level/);
    expect(split(`var n = 0;\nfunction up() { n += 1; }\nexport { n, up };\n`)).toThrow(/exports n, a var assigned after its declaration/);
    expect(split(`const __chunkImports = 1;\nexport { __chunkImports };\n`)).toThrow(/its code uses __chunkImport, a name the cached-chunk wrapper needs/);
  });

  it('refuses a chunk that imports a binding its module assigns again later (the script is handed it once)', () => {
    for (const dep of [
      `let helper = (n) => n + 1;\nfunction swap() { helper = (n) => n; }\nexport { helper, swap };\n`,
      `export let helper = (n) => n + 1;\nexport function swap() { helper = (n) => n; }\n`,
    ]) {
      const { dir } = builtChunk(`import { helper } from './dep.js';\nconst x = () => helper(1);\nexport { x };\n`);
      writeFileSync(join(dir, 'chunks', 'dep.js'), dep);
      expect(() => cacheChunk(dir, 'chunks/report-x.js', LOADER)).toThrow(/imports helper from chunks\/dep.js, a binding that module assigns after its declaration/);
    }
    // A binding that never moves (a const, a let never assigned again) is fine.
    const { dir } = builtChunk(`import { helper } from './dep.js';\nconst x = () => helper(1);\nexport { x };\n`);
    writeFileSync(join(dir, 'chunks', 'dep.js'), `let helper = (n) => n + 1;\nlet other = 0;\nfunction f() { other = 1; }\nexport { helper, f };\n`);
    expect(() => cacheChunk(dir, 'chunks/report-x.js', LOADER)).not.toThrow();
  });

  it('refuses a chunk that statically imports a chunk importing it back, directly or through others', () => {
    const { dir } = builtChunk(`import { helper } from './dep.js';\nconst x = helper(1);\nexport { x };\n`);
    writeFileSync(join(dir, 'chunks', 'dep.js'), `import { x } from './report-x.js';\nexport const helper = (n) => n + x;\n`);
    expect(() => cacheChunk(dir, 'chunks/report-x.js', LOADER)).toThrow(/imports chunks\/dep.js, which imports it back/);
    // Through another chunk: dep.js → other.js → report-x.js.
    writeFileSync(join(dir, 'chunks', 'dep.js'), `import { y } from './other.js';\nexport const helper = (n) => n + y;\n`);
    writeFileSync(join(dir, 'chunks', 'other.js'), `import { x } from './report-x.js';\nexport const y = 1;\nexport { x };\n`);
    expect(() => cacheChunk(dir, 'chunks/report-x.js', LOADER)).toThrow(/imports chunks\/dep.js, which imports it back/);
    // Without the cycle it is split.
    writeFileSync(join(dir, 'chunks', 'other.js'), `export const y = 1;\n`);
    cacheChunk(dir, 'chunks/report-x.js', LOADER);
    expect(readFileSync(join(dir, 'chunks', 'report-x.js'), 'utf8')).toContain('loadCachedChunk(');
  });
});
