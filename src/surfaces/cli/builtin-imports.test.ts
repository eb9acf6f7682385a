// The build's rewrite of built-in imports in the CLI bundle (scripts/builtin-imports.mjs): every
// import form of a built-in becomes constants from process.getBuiltinModule holding the same values,
// lines are kept, other imports are left alone, and the built bundle imports no built-in as a module.

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript (it runs inside rollup, from the build)
import { rewriteBuiltinImports } from '../../../scripts/builtin-imports.mjs';
import { REPO, tempDir } from '../../../test/helpers.js';

const CHUNK = `import { join, sep as separator } from 'node:path';
import fsDefault, { statSync } from 'node:fs';
import * as os from 'os';
import 'node:util';
import {
  hash,
  createHash as makeHash
} from 'node:crypto';
import { helper } from './dep.js';

export const seen = { join, separator, fsDefault, statSync, os, hash, makeHash, helper, line: new Error().stack.split('\\n')[1] };
`;

describe('rewriteBuiltinImports', () => {
  it('turns each import form of a built-in into constants with the same values, keeping the line count and other imports', async () => {
    const out: string = rewriteBuiltinImports(CHUNK);
    expect(out.split('\n').length).toBe(CHUNK.split('\n').length);
    expect(out).not.toMatch(/from ['"](node:)?(path|fs|os|crypto)['"]/);
    expect(out).not.toContain("import 'node:util'");
    expect(out).toContain("import { helper } from './dep.js';");

    const dir = tempDir();
    writeFileSync(join(dir, 'dep.js'), 'export const helper = 42;\n');
    writeFileSync(join(dir, 'chunk.mjs'), out);
    const { seen } = (await import(pathToFileURL(join(dir, 'chunk.mjs')).href)) as { seen: Record<string, unknown> };
    const crypto = await import('node:crypto');
    const os = await import('node:os');
    expect(seen.join).toBe(path.join);
    expect(seen.separator).toBe(path.sep);
    expect(seen.fsDefault).toBe(fs.default);
    expect(seen.statSync).toBe(fs.statSync);
    expect(seen.os).toBe(os.default);
    expect(seen.hash).toBe(crypto.hash);
    expect(seen.makeHash).toBe(crypto.createHash);
    expect(seen.helper).toBe(42);
    // The statement after the imports is on the line it had.
    const line = CHUNK.split('\n').findIndex((l) => l.startsWith('export const seen')) + 1;
    expect(String(seen.line)).toContain(`chunk.mjs:${line}:`);
  });

  it('leaves a chunk without built-in imports as it is', () => {
    const code = "import { a } from './a.js';\nexport const b = a + 1;\n";
    expect(rewriteBuiltinImports(code)).toBe(code);
  });
});

describe('the built CLI bundle', () => {
  it('imports no built-in as an ES module', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (name.endsWith('.js')) files.push(p);
      }
    };
    walk(join(REPO, 'dist', 'bundle'));
    expect(files.length).toBeGreaterThan(10);
    const importing = files.filter((f) => /^\s*(import|export)\b[^;]*['"]node:[\w/]+['"]/m.test(readFileSync(f, 'utf8')));
    expect(importing).toEqual([]);
  });
});
