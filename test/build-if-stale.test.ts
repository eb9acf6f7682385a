// scripts/build-if-stale.mjs: what `npm run demo`, `bench` and `test:fast` rebuild before they run.
// A bare tsc leaves the tool catalogues behind, and the CLI then loads every tool to parse a line.

import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript (it runs before anything is compiled)
import { staleReason } from '../scripts/build-if-stale.mjs';
import { tempDir } from './helpers.js';

function write(root: string, rel: string, at: number): void {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '');
  utimesSync(path, at, at);
}

/** A tree as a fresh `npm run build` leaves it: sources, then outputs, catalogues, bundle, each later. */
function builtTree(): string {
  const root = tempDir('hs-stale-');
  write(root, 'src/tools/a-tool/index.ts', 1000);
  write(root, 'src/surfaces/cli/main.ts', 1000);
  write(root, 'dist/src/tools/a-tool/index.js', 2000);
  write(root, 'dist/src/surfaces/cli/main.js', 2000);
  write(root, 'dist/src/tools/tool-catalogue.json', 3000);
  write(root, 'dist/src/tools/tool-commands.json', 3000);
  write(root, 'dist/bundle/surfaces/cli/main.js', 4000);
  write(root, 'scripts/bundle-cli.mjs', 1000);
  return root;
}

describe('build-if-stale', () => {
  it('is up to date after a whole build', () => {
    expect(staleReason(builtTree())).toBeNull();
  });

  it('rebuilds when a tool was compiled after the catalogues (a bare tsc)', () => {
    const root = builtTree();
    write(root, 'dist/src/tools/a-tool/index.js', 3500);
    expect(staleReason(root)).toBe('tool-catalogue.json is older than the compiled tools');
  });

  it('rebuilds when a catalogue is missing, a source changed, or the bundle is older than the CLI', () => {
    const noCommands = builtTree();
    write(noCommands, 'dist/src/tools/tool-commands.json', 1000);
    expect(staleReason(noCommands)).toBe('tool-commands.json is older than the compiled tools');
    const edited = builtTree();
    write(edited, 'src/tools/a-tool/index.ts', 5000);
    expect(staleReason(edited)).toBe('src/tools/a-tool/index.ts changed since the last build');
    const oldBundle = builtTree();
    write(oldBundle, 'dist/bundle/surfaces/cli/main.js', 1500);
    expect(staleReason(oldBundle)).toBe('the CLI bundle is older than the compiled CLI');
  });

  it('rebuilds when a script that makes the bundle changed since (the one-file SQLite driver and the cached chunks too)', () => {
    const root = builtTree();
    write(root, 'scripts/bundle-sqlite-driver.mjs', 5000);
    expect(staleReason(root)).toBe('scripts/bundle-sqlite-driver.mjs changed since the last bundle');
    const cached = builtTree();
    write(cached, 'scripts/cached-chunks.mjs', 5000);
    expect(staleReason(cached)).toBe('scripts/cached-chunks.mjs changed since the last bundle');
  });
});
