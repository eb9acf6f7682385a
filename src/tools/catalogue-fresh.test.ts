// When the build's catalogues may be read instead of loading every tool (catalogue.ts readFresh):
// fresh as the build left them, fresh after an install that wrote every file anew, stale after a
// bare tsc run, and never an answer from a file that is damaged or of another shape.

import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers.js';
import { readFresh, type CommandCatalogue } from './catalogue.js';

/** A registry and a commands file in a fresh folder, with these mtimes (seconds) and recorded registry mtime (ms). */
function tree(registrySeconds: number, fileSeconds: number, recordedMs: number, text?: string): { registry: string; file: string } {
  const dir = tempDir('hs-catalogue-');
  const registry = join(dir, 'registry.js');
  const file = join(dir, 'tool-commands.json');
  writeFileSync(registry, 'export {};\n');
  writeFileSync(file, text ?? JSON.stringify({ registry_mtime_ms: recordedMs, commands: [{ command: 'show' }] }));
  utimesSync(registry, registrySeconds, registrySeconds);
  utimesSync(file, fileSeconds, fileSeconds);
  return { registry, file };
}

const read = (t: { registry: string; file: string }) => readFresh<CommandCatalogue>(t.file, 'commands', t.registry);

describe('readFresh', () => {
  it('reads a catalogue written after the registry, as a build leaves them', () => {
    expect(read(tree(1_000, 1_001, 1_000_000))?.commands).toEqual([{ command: 'show' }]);
  });

  it('reads a catalogue whose recorded registry mtime still holds, whatever its own mtime', () => {
    expect(read(tree(1_000, 500, 1_000_000))?.commands).toHaveLength(1);
  });

  it('reads a catalogue after an install gave every file a new mtime, the catalogue written last', () => {
    expect(read(tree(2_000_000, 2_000_000, 1_000_000))?.commands).toHaveLength(1);
  });

  it('refuses a catalogue older than a registry rebuilt since (a bare tsc run)', () => {
    expect(read(tree(3_000, 2_000, 2_000_000))).toBeNull();
  });

  it.each([
    ['cut short', '{"registry_mtime_ms": 1000000, "commands": [{"comm'],
    ['not JSON', 'garbage\u0000'],
    ['null', 'null'],
    ['no list where the commands go', '{"registry_mtime_ms": 1000000, "commands": {"show": 1}}'],
    ['a list of another shape at the top', '[1, 2, 3]'],
  ])('refuses a damaged file (%s), never throws', (_what, text) => {
    expect(read(tree(1_000, 1_001, 1_000_000, text))).toBeNull();
  });

  it('refuses when the registry or the file is missing', () => {
    const t = tree(1_000, 1_001, 1_000_000);
    expect(readFresh<CommandCatalogue>(t.file, 'commands', `${t.registry}.gone`)).toBeNull();
    expect(readFresh<CommandCatalogue>(`${t.file}.gone`, 'commands', t.registry)).toBeNull();
  });
});
