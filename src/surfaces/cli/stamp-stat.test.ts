// The stamp's stats (stamp-stat.ts): the fs binding's numbers only when they are statSync's, and
// statSync whenever the binding is missing, refuses, or answers differently.

import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../../../test/helpers.js';
import { callsStatAsHere, stampStat, stampStatOver, statThroughFs, type StampStatFn } from './stamp-stat.js';

/** A folder with a file, a sub-folder, an empty file, a symbolic link and a dangling one. */
function tree(): { dir: string; paths: string[] } {
  const dir = tempDir('hs-stamp-stat-');
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'a.jsonl'), '{"a":1}\n'.repeat(1000));
  writeFileSync(join(dir, 'sub', 'empty.jsonl'), '');
  symlinkSync(join(dir, 'a.jsonl'), join(dir, 'link.jsonl'));
  symlinkSync(join(dir, 'gone.jsonl'), join(dir, 'dangling.jsonl'));
  const paths = [dir, join(dir, 'sub'), join(dir, 'a.jsonl'), join(dir, 'sub', 'empty.jsonl'), join(dir, 'link.jsonl'), join(dir, 'dangling.jsonl'), join(dir, 'missing'), join(dir, 'missing', 'deeper')];
  return { dir, paths };
}

/** A binding whose stat answers as `answer` says (for the probe and every later path). */
const fakeBinding = (answer: (path: string) => Float64Array | undefined) => ({ stat: (path: string) => answer(path) });

describe('the stamp stat', () => {
  it("gives statSync's figures for files, folders, links and missing paths", () => {
    const { paths } = tree();
    const fast = stampStat();
    for (const path of paths) expect(fast(path), path).toEqual(statThroughFs(path));
    const file = fast(paths[2]!)!;
    expect(file).toMatchObject({ isFile: true, isDirectory: false, size: 8000 });
    expect(fast(paths[0]!)).toMatchObject({ isFile: false, isDirectory: true });
    expect(fast(paths[6]!)).toBeUndefined();
  });

  it('throws as statSync throws for a path through a file (ENOTDIR)', () => {
    const { dir } = tree();
    const through = join(dir, 'a.jsonl', 'child');
    expect(() => statThroughFs(through)).toThrow(/ENOTDIR/);
    expect(() => stampStat()(through)).toThrow(/ENOTDIR/);
  });

  // The real binding is called directly only where this Node calls it as stamp-stat.ts does.
  it.runIf(callsStatAsHere())("uses the binding's numbers when they equal statSync's for the probe", () => {
    const { paths } = tree();
    const real = (process as unknown as { binding(name: string): { stat: (...a: unknown[]) => Float64Array | undefined } }).binding('fs');
    let calls = 0;
    const counting = fakeBinding((path) => {
      calls++;
      return real.stat(path, false, undefined, false);
    });
    const fast = stampStatOver(counting, paths[2]!);
    expect(calls).toBe(1); // the probe
    for (const path of paths.filter((p) => !p.endsWith('deeper'))) expect(fast(path), path).toEqual(statThroughFs(path));
    expect(calls).toBeGreaterThan(1);
  });

  it('falls back to statSync when the binding answers differently, throws, is missing or returns another shape', () => {
    const { paths } = tree();
    const probe = paths[2]!;
    const lying = fakeBinding(() => new Float64Array(36).fill(7));
    const throwing = fakeBinding(() => {
      throw new Error('refused');
    });
    const short = fakeBinding(() => new Float64Array(4));
    const notArray = fakeBinding(() => [1, 2, 3] as unknown as Float64Array);
    for (const binding of [lying, throwing, short, notArray, undefined, {}, { stat: 'no' }]) {
      const fn: StampStatFn = stampStatOver(binding, probe);
      expect(fn).toBe(statThroughFs);
    }
    // A probe that does not exist proves nothing: statSync too.
    const absent = fakeBinding(() => undefined);
    expect(stampStatOver(absent, join(paths[0]!, 'missing'))).toBe(statThroughFs);
  });

  it('leaves a path holding a NUL to statSync, which refuses it', () => {
    const { paths } = tree();
    const fast = stampStat();
    expect(() => fast(`${paths[2]!}\0/etc/passwd`)).toThrow(/null bytes/);
  });

  it('refuses a path that is not a string with an error (the binding would end the process)', () => {
    const fast = stampStat();
    for (const bad of [['/etc'], 42, null, { path: '/etc' }]) expect(() => fast(bad as unknown as string)).toThrow(TypeError);
  });

  it('prints no deprecation warning under --pending-deprecation (statSync is used then)', () => {
    const { paths } = tree();
    const built = pathToFileURL(join(REPO, 'dist', 'src', 'surfaces', 'cli', 'stamp-stat.js')).href;
    const script = `const { stampStat, statThroughFs } = await import(${JSON.stringify(built)}); process.stdout.write(String(stampStat() === statThroughFs) + ' ' + JSON.stringify(stampStat()(${JSON.stringify(paths[2])})));`;
    for (const [args, env] of [
      [['--pending-deprecation'], {}],
      [[], { NODE_OPTIONS: '--pending-deprecation' }],
    ] as const) {
      const res = spawnSync(process.execPath, [...args, '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, ...env } });
      expect(res.stderr).not.toMatch(/DEP0111|DeprecationWarning/);
      const [fellBack, figures] = res.stdout.split(' ');
      expect(fellBack).toBe('true');
      expect(JSON.parse(figures!)).toEqual(statThroughFs(paths[2]!));
    }
  });

  it("calls the binding only when this Node's statSync calls it the same way", () => {
    expect(callsStatAsHere()).toBe(true); // Node 20.20 and later: stat(path, bigint, undefined, throwIfNoEntry)
    // The older call, with an error context fourth: a wrong argument there aborts in native code.
    const older = `function statSync(path, options = { bigint: false, throwIfNoEntry: true }) {
      const ctx = { path };
      const stats = binding.stat(pathModule.toNamespacedPath(getValidatedPath(path)), options.bigint, undefined, ctx);
      if (options.throwIfNoEntry === false && hasNoEntryError(ctx)) return undefined;
      handleErrorFromBinding(ctx);
      return getStatsFromBinding(stats);
    }`;
    expect(callsStatAsHere(older)).toBe(false);
    expect(callsStatAsHere('function statSync() { return 1; }')).toBe(false);
  });
});
