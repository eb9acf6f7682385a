// The layering rules of the redesign (issue 13), checked over the source tree:
// (a) a format is one folder: no source file outside src/formats/ names a registered format id in
//     quotes (tools ask the format's profile instead of branching on its id);
// (b) tools are leaves: no file under src/tools/<a>/ imports from src/tools/<b>/ (what several
//     tools share lives in src/analysis/, format knowledge in the format folders).

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FORMATS } from './registry.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Files allowed to name a format id for now, each with its reason. They belong to the store, sync
 * and access layers, whose format rules move behind the profile in separate work; remove each line
 * once its file is fixed (the test fails on a line that is no longer needed).
 */
const ALLOWED: Readonly<Record<string, string>> = {
  'src/store/conformance/tool-cases.ts': 'the conformance cases filter by each format and pick plane roots by format id',
};

/** Test files and test helpers (`test-*.ts`, which copy fixture folders named like the formats) are not the product. */
function isTestFile(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base.endsWith('.test.ts') || base.startsWith('test-');
}

/** Every .ts and .js file under `dir`, as paths relative to the repository root with `/` separators. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|js)$/.test(entry.name)) out.push(relative(resolve(SRC, '..'), path).split(sep).join('/'));
  }
  return out.sort();
}

const read = (path: string): string => readFileSync(resolve(SRC, '..', path), 'utf8');
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The registered format ids a file names in quotes ('claude-code', "amplifier", `codex`). */
function quotedFormatIds(text: string): string[] {
  return FORMATS.filter((id) => new RegExp(`['"\`]${escapeRe(id)}['"\`]`).test(text));
}

/** Module paths a file imports or re-exports (static and dynamic). */
function importSpecifiers(text: string): string[] {
  const specs: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\1/g)) specs.push(m[2]!);
  return specs;
}

/** The tool folder a repository path is in (`src/tools/<name>/…`), or null for anything else (top-level helpers included). */
function toolFolderOf(path: string): string | null {
  const m = /^src\/tools\/([^/]+)\/./.exec(path);
  return m ? m[1]! : null;
}

describe('layering', () => {
  const files = sourceFiles(SRC);

  it('reads the registered format ids from the registry', () => {
    expect(FORMATS.length).toBeGreaterThanOrEqual(3);
    expect(files.length).toBeGreaterThan(100);
  });

  it('names format ids only inside src/formats/ (the registry owns the list)', () => {
    const offenders: string[] = [];
    for (const path of files) {
      if (path.startsWith('src/formats/') || isTestFile(path) || path in ALLOWED) continue;
      const ids = quotedFormatIds(read(path));
      if (ids.length > 0) offenders.push(`${path}: ${ids.join(', ')}`);
    }
    expect(offenders, 'ask the format profile (src/formats/profile.ts, profileOf) instead of comparing format ids').toEqual([]);
  });

  it('keeps the allow-list to files that still need it', () => {
    const stale = Object.keys(ALLOWED).filter((path) => !files.includes(path) || quotedFormatIds(read(path)).length === 0);
    expect(stale, 'these files no longer name a format id: remove them from ALLOWED').toEqual([]);
  });

  it('keeps tools leaves: no tool folder imports another', () => {
    const crossings: string[] = [];
    for (const path of files) {
      const own = toolFolderOf(path);
      if (own === null) continue;
      for (const spec of importSpecifiers(read(path))) {
        if (!spec.startsWith('.')) continue;
        const target = relative(resolve(SRC, '..'), resolve(SRC, '..', dirname(path), spec)).split(sep).join('/');
        const other = toolFolderOf(target);
        if (other !== null && other !== own) crossings.push(`${path} imports ${spec}`);
      }
    }
    expect(crossings, 'move what tools share into src/analysis/, format rules into the format folders').toEqual([]);
  });

  it('finds both kinds of violation (the checks can fail)', () => {
    expect(quotedFormatIds(`if (f === '${FORMATS[0]}') {}`)).toEqual([FORMATS[0]]);
    expect(quotedFormatIds(`// the ${FORMATS[0]} importer`)).toEqual([]);
    expect(importSpecifiers(`import { a } from '../b/c.js';\nconst m = await import('./d.js');\nexport * from "../e.js";`)).toEqual(['../b/c.js', './d.js', '../e.js']);
    expect(toolFolderOf('src/tools/get-session/index.ts')).toBe('get-session');
    expect(toolFolderOf('src/tools/session-view.ts')).toBeNull();
  });
});
