// Layers point down: every non-test module under src/ imports only from its own layer or the
// layers below it (docs/architecture.md). Bottom to top:
//
//   core, runtime/parsers, runtime/model → formats → store → ingest → usage, analysis → sync, otel
//   → tools → runtime → surfaces
//
// The tool-call parsers and the runtime's chat vocabulary stand on nothing but themselves and sit
// with core (the parse_tool_calls tool uses them). The rest of the runtime is an agent over the
// tools: it dispatches registry tools, records into the store, and the CLI runs it. sync sits below
// tools: it runs on the store and ingest, and the sync_status tool and list_sessions' `source` are
// tools over it. Type-only imports count too: a type is a dependency of the design.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname);

const RANK: Record<string, number> = {
  core: 0,
  'runtime/parsers': 0,
  'runtime/model': 0,
  formats: 1,
  store: 2,
  ingest: 3,
  usage: 4,
  analysis: 4,
  sync: 5,
  otel: 5,
  tools: 6,
  runtime: 7,
  surfaces: 8,
};

/**
 * Upward imports allowed for now, each with its reason (importer → imported, paths under src/).
 * Every entry must still exist, so the list shrinks as the code is cleaned.
 */
const ALLOWED: Record<string, string> = {
  'formats/harness.ts → ingest/harness.ts':
    'the in-memory harness moved to ingest/; the old path re-exports it until the format tests import it from there',
};

/** Test files and test-support modules (`test-*.ts`, left out of the build too) may reach anywhere. */
function isSource(name: string): boolean {
  return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts') && !name.startsWith('test-');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return isSource(e.name) ? [path] : [];
  });
}

/** Relative specifiers of every static import, re-export and dynamic import in `text`. */
export function importSpecifiers(text: string): string[] {
  const found: string[] = [];
  const patterns = [/\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g, /\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g, /^\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/gm];
  for (const re of patterns) for (const m of text.matchAll(re)) found.push(m[1]!);
  return found;
}

/** The layer of a path under src/: its top folder, or the two-level name when that has a rank of its own. */
function layerOf(pathUnderSrc: string): string {
  const [top, sub] = pathUnderSrc.split('/');
  const two = `${top}/${sub}`;
  return two in RANK ? two : top!;
}

/** Every import from a higher layer, as `importer → imported` (paths under src/, `.js` read as `.ts`). */
function upwardImports(): string[] {
  const out: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = relative(SRC, file);
    const fromLayer = layerOf(from);
    for (const spec of importSpecifiers(readFileSync(file, 'utf8'))) {
      const target = relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, '.ts');
      if (target.startsWith('..')) continue;
      const toLayer = layerOf(target);
      if (!(fromLayer in RANK) || !(toLayer in RANK)) throw new Error(`${from}: the layer of ${fromLayer}/ or ${toLayer}/ is not listed in RANK`);
      if (RANK[toLayer]! > RANK[fromLayer]!) out.push(`${from} → ${target}`);
    }
  }
  return [...new Set(out)].sort();
}

describe('layers', () => {
  it('reads every kind of import', () => {
    const text = `import type { A } from '../store/store.js';\nexport { b } from "./b.js";\nconst c = await import('../sync/c.js');\nimport './side.js';\nimport x from 'node:fs';`;
    expect(importSpecifiers(text).sort()).toEqual(['../store/store.js', '../sync/c.js', './b.js', './side.js']);
  });

  it('knows the layer of every folder under src/', () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(layerOf('runtime/parsers/pipeline.ts')).toBe('runtime/parsers');
    expect(layerOf('runtime/session/session.ts')).toBe('runtime');
    expect(folders.filter((f) => !(f in RANK))).toEqual([]);
  });

  it('has no upward import but the listed ones', () => {
    const found = upwardImports();
    expect(found.filter((i) => !(i in ALLOWED))).toEqual([]);
    // A listed exception that no longer happens is taken off the list.
    expect(Object.keys(ALLOWED).filter((i) => !found.includes(i))).toEqual([]);
  });
});
